// The IPC transport: every call arrives as unknown, is checked against the contract and its sender, and is
// answered as a Result so a window never sees a thrown Error.
import type { IpcMainInvokeEvent } from 'electron';
import { ipcMain } from 'electron';
import { IPC_CHANNEL } from '../../src-shared/ipc/contract';
import type { DeskServices } from '../desk/services';
import { dispatch } from '../desk/dispatch';

export function serveBridge(services: DeskServices, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): void {
  ipcMain.handle(IPC_CHANNEL, async (event, method: unknown, request: unknown) => {
    if (!isTrustedSender(event)) {
      return { ok: false, error: { ref: 'E0003_PermissionDenied', message: 'E0003_PermissionDenied: call from a page that is not ours' } };
    }
    return dispatch(services, method, request);
  });
}
