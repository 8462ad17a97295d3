// Every window is made by one factory with Electron's secure settings, shows only our pages, opens only our pages,
// and its page carries a strict content security policy.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_WINDOW } from '../../../src-main/app/window-state';
import { CONTENT_SECURITY_POLICY, devServerUrl, isOwnPage, ownPages, secureWindowOptions, windowOpenDecision } from '../../../src-main/app/window-options';

const root = join(import.meta.dirname, '../../..');
const packaged = ownPages(undefined, 'file:///opt/Nova%20Desk/resources/app.asar/out/renderer/index.html');
const dev = ownPages('http://localhost:5173/', 'file:///work/out/renderer/index.html');

describe('the window factory', () => {
  it('isolates, sandboxes and keeps Node out of every window', () => {
    const options = secureWindowOptions({ preloadPath: '/app/out/preload/index.cjs', title: 'Nova Desk' });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
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
    });
    expect(options.show).toBe(false);
  });

  it('places a window where it is told, and nowhere in particular otherwise', () => {
    expect(secureWindowOptions({ preloadPath: 'p', title: 't', x: 10, y: 20, width: 900, height: 700 })).toMatchObject({ x: 10, y: 20, width: 900, height: 700 });
    expect(secureWindowOptions({ preloadPath: 'p', title: 't' })).not.toHaveProperty('x');
  });

  it('cannot be dragged smaller than a window may open', () => {
    expect(secureWindowOptions({ preloadPath: 'p', title: 't' })).toMatchObject({ minWidth: MIN_WINDOW.width, minHeight: MIN_WINDOW.height });
  });
});

describe('our own pages', () => {
  it('are the packaged index.html, with any query (a popped-out panel), and nothing else on disk', () => {
    expect(isOwnPage(packaged.rendererPage, packaged)).toBe(true);
    expect(isOwnPage(`${packaged.rendererPage}?panel=ladder&kind=ladder#x`, packaged)).toBe(true);
    expect(isOwnPage('file:///opt/Nova%20Desk/resources/app.asar/out/renderer/other.html', packaged)).toBe(false);
    expect(isOwnPage('file:///etc/passwd', packaged)).toBe(false);
    expect(isOwnPage('https://example.com/', packaged)).toBe(false);
    expect(isOwnPage('not a url', packaged)).toBe(false);
  });

  it('are the dev server origin when it runs, and not a look-alike host', () => {
    expect(isOwnPage('http://localhost:5173/?panel=tape&kind=tape', dev)).toBe(true);
    expect(isOwnPage('http://localhost:5174/', dev)).toBe(false);
    expect(isOwnPage('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isOwnPage('file:///work/out/renderer/index.html', dev)).toBe(false);
  });
});

describe('the dev server address', () => {
  it('is taken from electron-vite in a checkout', () => {
    expect(devServerUrl(false, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toBe('http://localhost:5173');
    expect(devServerUrl(false, {})).toBeUndefined();
    expect(devServerUrl(false, { ELECTRON_RENDERER_URL: '' })).toBeUndefined();
  });

  it('is never taken from the environment by a packaged app, which would load that page as its own', () => {
    const url = devServerUrl(true, { ELECTRON_RENDERER_URL: 'https://desk.example.net' });
    expect(url).toBeUndefined();
    const pages = ownPages(url, packaged.rendererPage);
    expect(isOwnPage('https://desk.example.net/', pages)).toBe(false);
    expect(isOwnPage(packaged.rendererPage, pages)).toBe(true);
  });
});

describe('window.open', () => {
  it('opens a popped-out panel as our own window with the same secure options', () => {
    const decision = windowOpenDecision(`${packaged.rendererPage}?panel=chart&kind=chart`, packaged, '/app/preload.cjs');
    if (decision.action !== 'allow') throw new Error('refused our own page');
    expect(decision.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: '/app/preload.cjs' });
  });

  it('shows a popped-out panel as it opens', () => {
    // Electron shows a window.open window only if its options say so, and its ready-to-show is not reliable for
    // such windows (electron/electron#40273): a panel opened hidden left the workspace for a window never seen.
    const decision = windowOpenDecision(`${packaged.rendererPage}?panel=chart&kind=chart`, packaged, '/app/preload.cjs');
    if (decision.action !== 'allow') throw new Error('refused our own page');
    expect(decision.options.show).toBe(true);
    expect(decision.options.backgroundColor).toBe(secureWindowOptions({ preloadPath: 'p', title: 't' }).backgroundColor);
  });

  it('refuses every other page; an https link may go to the system browser', () => {
    expect(windowOpenDecision('https://example.com/docs', packaged, 'p')).toEqual({ action: 'deny', external: 'https://example.com/docs' });
    expect(windowOpenDecision('http://example.com/', packaged, 'p')).toEqual({ action: 'deny' });
    expect(windowOpenDecision('file:///etc/passwd', packaged, 'p')).toEqual({ action: 'deny' });
    expect(windowOpenDecision('javascript:alert(1)', packaged, 'p')).toEqual({ action: 'deny' });
  });
});

describe('the content security policy', () => {
  const metaPolicy = (file: string): string | undefined =>
    /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(readFileSync(file, 'utf8'))?.[1];

  it('is the one the renderer page carries, built or not', () => {
    expect(metaPolicy(join(root, 'src-renderer/index.html'))).toBe(CONTENT_SECURITY_POLICY);
    const built = join(root, 'out/renderer/index.html');
    if (existsSync(built)) expect(metaPolicy(built)).toBe(CONTENT_SECURITY_POLICY);
  });

  it('runs only our own scripts and lets nothing embed, frame or post the page', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }));
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    // A <meta> policy ignores frame-ancestors and logs an error in every window: browser mode, the only one a
    // page could frame, sends it as a header (web-bridge.ts).
    expect(directives.has('frame-ancestors')).toBe(false);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*\s|https?:\s/);
  });
});
