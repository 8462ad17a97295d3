// The IPC transport: every call arrives as unknown, is checked against its sender and the contract, and is
// answered as a Result so a window never sees a thrown Error. Events reach each window through its own frame
// coalescer, so a busy book costs a window at most one message a frame.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { ipcMain } from 'electron';
import { EVENT_CHANNEL, IPC_CHANNEL } from '../../src-shared/ipc/contract';
import type { Desk } from '../desk/desk';
import { FrameCoalescer } from '../desk/desk-events';
import { dispatch } from '../desk/dispatch';
import type { DeskServices } from '../desk/services';

export function serveBridge(services: DeskServices, desk: Desk, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): void {
  ipcMain.handle(IPC_CHANNEL, async (event, method: unknown, request: unknown) => {
    if (!isTrustedSender(event)) {
      return { ok: false, error: { ref: 'E0003_PermissionDenied', message: 'E0003_PermissionDenied: call from a page that is not ours' } };
    }
    return dispatch(services, method, request, (text) => desk.keys.scrub(text));
  });
}

/** Push the desk's events to one window until it is gone. */
export function forwardEvents(desk: Desk, contents: WebContents): void {
  const coalescer = new FrameCoalescer(desk.events.onDidEmit, (event) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event.name, event.payload);
  });
  contents.once('destroyed', () => coalescer.dispose());
}
