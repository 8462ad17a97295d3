// The preload's whole job: expose `window.nova`, one function per contract method, and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, methodNames } from '../src-shared/ipc/contract';

const nova = Object.fromEntries(
  methodNames.map((method) => [method, (request: unknown) => ipcRenderer.invoke(IPC_CHANNEL, method, request)]),
);

contextBridge.exposeInMainWorld('nova', nova);
