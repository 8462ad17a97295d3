// The preload's whole job: expose `window.nova`, one function per contract method plus `on` for the contract's
// events, and nothing else; and turn a menu click on one of the page's own shortcuts into that key (shortcuts.ts).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, EVENT_NAMES, IPC_CHANNEL, METHOD_NAMES } from '../src-shared/ipc/methods';
import { SHORTCUT_CHANNEL, shortcutKey } from './shortcuts';

const methods = Object.fromEntries(
  METHOD_NAMES.map((method) => [method, (request: unknown) => ipcRenderer.invoke(IPC_CHANNEL, method, request)]),
);

/** Listen to one named event; the result stops listening. */
function on(name: unknown, listener: unknown): () => void {
  if (typeof name !== 'string' || !(EVENT_NAMES as readonly string[]).includes(name) || typeof listener !== 'function') {
    throw new TypeError('nova.on(event, listener): unknown event or listener is not a function');
  }
  const handler = (_event: IpcRendererEvent, eventName: unknown, payload: unknown): void => {
    if (eventName === name) (listener as (payload: unknown) => void)(payload);
  };
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => {
    ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  };
}

contextBridge.exposeInMainWorld('nova', { ...methods, on });

// Raised where the trader's focus is, so it bubbles to the page's window listeners as a typed key would.
ipcRenderer.on(SHORTCUT_CHANNEL, (_event: IpcRendererEvent, name: unknown) => {
  const key = shortcutKey(name);
  if (key === undefined) return;
  const target = document.activeElement ?? document.body;
  target.dispatchEvent(new KeyboardEvent('keydown', { ...key, bubbles: true, cancelable: true }));
});
