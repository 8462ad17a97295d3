// A listening server that answers every request 503 and records its headers: where a key or secret sent to an
// address the desk must not use would show.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface RequestRecorder {
  readonly server: Server;
  readonly port: number;
  /** Every request and upgrade that reached it, headers included. */
  readonly seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function listeningRecorder(): Promise<RequestRecorder> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"E0902_ServiceUnavailable: recorder"}');
  });
  server.on('upgrade', (request, socket) => {
    seen.push(request.headers);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
