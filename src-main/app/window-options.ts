// One factory for every window's options, so no window can be created with weaker settings than the rest.
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowSpec {
  preloadPath: string;
  title: string;
  width?: number;
  height?: number;
}

export function secureWindowOptions(spec: WindowSpec): BrowserWindowConstructorOptions {
  return {
    title: spec.title,
    width: spec.width ?? 1280,
    height: spec.height ?? 800,
    show: false,
    backgroundColor: '#0f1115',
    webPreferences: {
      preload: spec.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** Our own pages only: the dev server in development, the packaged file otherwise. */
export function isOwnPage(url: string, ownOrigin: string | undefined): boolean {
  if (ownOrigin !== undefined) return url.startsWith(ownOrigin);
  return url.startsWith('file://');
}
