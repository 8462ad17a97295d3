// One factory for every window's options, so no window can be created with weaker settings than the rest, and the
// one rule for which pages a window may show or open. Pure: index.ts applies them, tests read them.
import type { BrowserWindowConstructorOptions } from 'electron';
import { MIN_WINDOW } from './window-state';

/**
 * The renderer's policy, carried by the meta tag of src-renderer/index.html (the packaged app loads that file,
 * which has no response headers); a test holds the page to this text. connect-src names loopback WebSockets for
 * browser mode, where the same page talks to the desk over one.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:*; object-src 'none'; base-uri 'none'; form-action 'none'";

export interface WindowSpec {
  preloadPath: string;
  title: string;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
}

export function secureWindowOptions(spec: WindowSpec): BrowserWindowConstructorOptions {
  return {
    title: spec.title,
    width: spec.width ?? 1280,
    height: spec.height ?? 800,
    // The smallest a window opens at is also the smallest it can be dragged to: below it panels stop being readable
    // (the workspace scrolls sideways under 1000 px; a popped-out panel is laid out down to this).
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    ...(spec.x === undefined || spec.y === undefined ? {} : { x: spec.x, y: spec.y }),
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
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

/** Where our pages come from: the dev server in development, else the packaged renderer's index.html. */
export interface OwnPages {
  /** e.g. http://localhost:5173, when `npm start` runs the dev server. */
  readonly devServerOrigin?: string;
  /** file:// URL of out/renderer/index.html. */
  readonly rendererPage: string;
}

/**
 * The dev server's address, which electron-vite passes in the environment for `npm start`: in a checkout only. A
 * packaged app that took it from its environment would load whatever page it named as its own, window.nova
 * and all (orders, keys), the door its fuses close for NODE_OPTIONS and ELECTRON_RUN_AS_NODE.
 */
export function devServerUrl(isPackaged: boolean, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const url = env['ELECTRON_RENDERER_URL'];
  return isPackaged || url === undefined || url === '' ? undefined : url;
}

export function ownPages(devServerUrl: string | undefined, rendererPage: string): OwnPages {
  return devServerUrl === undefined ? { rendererPage } : { devServerOrigin: new URL(devServerUrl).origin, rendererPage };
}

/**
 * Our own pages only: the same origin as the dev server, or exactly the packaged index.html (any query, which is
 * how a popped-out panel says what it shows). Any other file on disk is not ours.
 */
export function isOwnPage(url: string, pages: OwnPages): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (pages.devServerOrigin !== undefined) return parsed.origin === pages.devServerOrigin;
  const page = new URL(pages.rendererPage);
  return parsed.protocol === 'file:' && parsed.host === page.host && parsed.pathname === page.pathname;
}

export type WindowOpenDecision =
  | { action: 'allow'; options: BrowserWindowConstructorOptions }
  /** `external`: an https link the system browser may show; never inside the app. */
  | { action: 'deny'; external?: string };

/**
 * A popped-out panel opens as our own window with the same secure options, shown at once: Electron shows a
 * window.open window only if its options say so and does not reliably emit ready-to-show for one
 * (electron/electron#40273), and the dark background keeps the first frame from flashing white. Everything else
 * is refused.
 */
export function windowOpenDecision(url: string, pages: OwnPages, preloadPath: string): WindowOpenDecision {
  if (isOwnPage(url, pages)) {
    return { action: 'allow', options: { ...secureWindowOptions({ preloadPath, title: 'Nova Desk', width: 720, height: 640 }), show: true } };
  }
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    return { action: 'deny' };
  }
  return protocol === 'https:' ? { action: 'deny', external: url } : { action: 'deny' };
}
