// The IPC transport: every call arrives as unknown, is checked against its sender and the contract, and is
// answered as a Result so a window never sees a thrown Error. Events reach each window through its own frame
// coalescer, so a busy book costs a window at most one message a frame. Electron's objects come in as
// parameters, so the checks run in plain unit tests.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { Result } from '../../src-shared/ipc/contract';
import { EVENT_CHANNEL, IPC_CHANNEL } from '../../src-shared/ipc/methods';
import type { DeskEvent } from '../desk/desk-events';
import { FrameCoalescer } from '../desk/desk-events';
import { dispatch } from '../desk/dispatch';
import type { DeskServices } from '../desk/services';
import type { Event } from '../connection/events';

/** What the handler needs of an invoke event: the frame that sent it (null once that frame is gone) and its window. */
export type InvokeSender = Pick<IpcMainInvokeEvent, 'senderFrame'> & { readonly sender: Pick<WebContents, 'id'> };

export const NOT_OUR_PAGE: Result<never> = {
  ok: false,
  error: { ref: 'E0003_PermissionDenied', message: 'E0003_PermissionDenied: call from a page that is not ours' },
};

/** The handler of the bridge channel: a sender whose frame is not one of our pages is refused before parsing. */
export function bridgeHandler(
  services: DeskServices,
  scrub: (text: string) => string,
  isOwnPage: (url: string) => boolean,
): (event: InvokeSender, method: unknown, request: unknown) => Promise<Result<unknown>> {
  return async (event, method, request) => {
    const url = event.senderFrame?.url;
    if (url === undefined || !isOwnPage(url)) return NOT_OUR_PAGE;
    return dispatch(services, method, request, scrub, { window: String(event.sender.id) });
  };
}

export function serveBridge(ipc: Pick<IpcMain, 'handle' | 'removeHandler'>, handler: ReturnType<typeof bridgeHandler>): { stop(): void } {
  ipc.handle(IPC_CHANNEL, handler);
  return { stop: () => ipc.removeHandler(IPC_CHANNEL) };
}

/** Push the desk's events to one window until it is gone; then `gone` (its watches end with it). */
export function forwardEvents(source: Event<DeskEvent>, contents: Pick<WebContents, 'isDestroyed' | 'send' | 'once' | 'id'>, gone: (window: string) => void): void {
  const coalescer = new FrameCoalescer(source, (event) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event.name, event.payload);
  });
  const window = String(contents.id);
  contents.once('destroyed', () => {
    coalescer.dispose();
    gone(window);
  });
}
