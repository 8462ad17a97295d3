// The preload's whole job: expose `window.nova`, one function per contract method, and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, METHOD_NAMES } from '../src-shared/ipc/methods';

const nova = Object.fromEntries(
  METHOD_NAMES.map((method) => [method, (request: unknown) => ipcRenderer.invoke(IPC_CHANNEL, method, request)]),
);

contextBridge.exposeInMainWorld('nova', nova);
