/**
 * Browser mode's server: the built renderer and the bridge contract over a loopback WebSocket, guarded by a
 * one-time token.
 *
 * The token is printed in the ready line's address. The first request that presents it (`/?token=...`) uses
 * it up and gets a session cookie (HttpOnly, SameSite=Strict) and a redirect to the same page without the
 * token, so it does not linger in the address bar or the history. Every later request, the /bridge WebSocket
 * and the pages of further windows (a popped-out book opened from the desk) are let in by that cookie; a second
 * browser needs a new token (restart `npm run web`). The WebSocket also checks Origin, so another site open in
 * the same browser cannot reach the desk, and every request checks Host, so a DNS-rebound name cannot either.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Desk } from '../desk/desk';
import { bridgeError } from '../desk/desk-error';
import { FrameCoalescer } from '../desk/desk-events';
import { dispatch } from '../desk/dispatch';
import type { DeskServices } from '../desk/services';
import { BRIDGE_PATH, CallFrame, MAX_FRAME_BYTES, SESSION_COOKIE } from './bridge-protocol';

export interface WebBridgeOptions {
  readonly desk: Desk;
  readonly services: DeskServices;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Every frame in and out, for the test that looks for secrets on the wire. */
  readonly onFrame?: (direction: 'in' | 'out', text: string) => void;
}

export interface WebBridge {
  readonly port: number;
  readonly origin: string;
  /** The address with the one-time token: what the ready line prints. */
  readonly url: string;
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const rendererDir = resolve(options.rendererDir);
  let token: string | undefined = randomBytes(24).toString('base64url');
  const sessions = new Set<string>();
  let port = 0;
  const hosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = (): string[] => hosts().map((h) => `http://${h}`);

  const hasSession = (request: IncomingMessage): boolean => {
    const id = cookieOf(request, SESSION_COOKIE);
    return id !== undefined && [...sessions].some((s) => sameSecret(s, id));
  };

  const answer = (response: ServerResponse, status: number, text: string): void => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(text + '\n');
  };

  const server = createServer((request, response) => {
    if (!hosts().includes(request.headers.host ?? '')) return answer(response, 421, 'Wrong host: open the address npm run web printed.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'Only GET.');
    const url = requestUrl(request);
    if (url === undefined) return answer(response, 400, 'Bad request target.');
    const presented = url.searchParams.get('token');
    if (presented !== null) {
      if (token === undefined || !sameSecret(token, presented)) {
        return answer(response, 403, 'This desk link is wrong or was already used. Restart npm run web for a new one.');
      }
      token = undefined;
      const session = randomBytes(24).toString('base64url');
      sessions.add(session);
      url.searchParams.delete('token');
      response.writeHead(303, {
        location: url.pathname + url.search,
        'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      return response.end();
    }
    if (!hasSession(request)) return answer(response, 401, 'Open the address with the token that npm run web printed.');
    let path: string;
    try {
      path = url.pathname === '/' ? '/index.html' : decodeURIComponent(url.pathname);
    } catch {
      return answer(response, 400, 'Bad path.');
    }
    const file = resolve(join(rendererDir, path));
    if (!file.startsWith(rendererDir + sep) || !existsSync(file) || !statSync(file).isFile()) return answer(response, 404, 'Not found.');
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      // Only a header can carry frame-ancestors: the page's <meta> policy cannot.
      'content-security-policy': "frame-ancestors 'none'",
    });
    response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const refuse = (socket: Socket, status: number, reason: string): void => {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = requestUrl(request);
    if (url === undefined) return refuse(socket, 400, 'Bad Request');
    if (url.pathname !== BRIDGE_PATH) return refuse(socket, 404, 'Not Found');
    if (!hosts().includes(request.headers.host ?? '')) return refuse(socket, 421, 'Misdirected Request');
    if (!origins().includes(request.headers.origin ?? '')) return refuse(socket, 403, 'Forbidden');
    if (!hasSession(request)) return refuse(socket, 401, 'Unauthorized');
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws));
  });

  let pages = 0;
  const serve = (ws: WebSocket): void => {
    // Each page is a window of its own: what it watches ends when it goes.
    const caller = { window: `page-${++pages}` };
    const send = (frame: unknown): void => {
      if (ws.readyState !== ws.OPEN) return;
      const text = JSON.stringify(frame);
      options.onFrame?.('out', text);
      ws.send(text);
    };
    const coalescer = new FrameCoalescer(options.desk.events.onDidEmit, (event) => send({ type: 'event', name: event.name, payload: event.payload }));
    // A frame the WebSocket refuses (past MAX_FRAME_BYTES, text that is not UTF-8) is reported here, and the library
    // closes the connection with the protocol's code itself. Unheard, the error was thrown and ended the process,
    // the local venue with it.
    ws.on('error', () => undefined);
    ws.on('close', () => {
      coalescer.dispose();
      options.desk.windowClosed(caller.window);
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? '' : rawText(data);
      options.onFrame?.('in', text);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return send({ type: 'result', id: null, result: { ok: false, error: bridgeError('E0102_MalformedJson', 'a bridge frame must be JSON') } });
      }
      const frame = CallFrame.safeParse(json);
      if (!frame.success) {
        return send({ type: 'result', id: null, result: { ok: false, error: bridgeError('E0101_InvalidArgument', 'a bridge frame is { id, method, request }') } });
      }
      const { id, method, request } = frame.data;
      void dispatch(options.services, method, request, (t) => options.desk.keys.scrub(t), caller).then((result) => send({ type: 'result', id, result }));
    });
  };

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/?token=${token}`;
  return {
    port,
    origin,
    url,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/**
 * The request's target, or undefined when it cannot be read as a URL: Node's parser lets an absolute form with a
 * broken host through ("GET http://[ HTTP/1.1"), and new URL's throw, in a listener, would end the process.
 */
function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? '/', 'http://127.0.0.1');
  } catch {
    return undefined;
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
