// A real HTTP relay in front of a real venue, as Development and Production sit behind one (a load balancer, a
// CDN). Each request is passed on unless the test's rule says otherwise: answer in the venue's place without
// passing it on, pass it on and replace the venue's answer, answer at once and pass it on only later (a
// gateway that gave up on the request while it still sits in a queue on its way to the venue), or hold it and pass
// it on, with the venue's answer, only later (a slow hop). WebSocket upgrades are not relayed: the desk's socket goes
// to the venue directly.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer the gateway gives itself. */
export interface GatewayAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
}

export const GATEWAY_TIMEOUT: GatewayAnswer = { status: 504, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>504 Gateway Time-out</h1></body></html>' };

/**
 * What to do with one request: pass it on, answer instead of the venue, pass it on and answer instead, answer
 * instead now and pass it on once `until` resolves (the venue's answer to it then goes nowhere), or pass it on
 * once `held` resolves (the venue's answer then goes back).
 */
export type GatewayRule = (request: {
  method: string;
  path: string;
}) => 'pass' | { instead: GatewayAnswer } | { after: GatewayAnswer } | { late: GatewayAnswer; until: Promise<void> } | { held: Promise<void> };

export interface HttpGateway {
  readonly baseUrl: string;
  rule: GatewayRule;
  close(): Promise<void>;
}

export async function openHttpGateway(venuePort: number): Promise<HttpGateway> {
  const answer = (outgoing: ServerResponse, given: GatewayAnswer): void => {
    outgoing.writeHead(given.status, { ...given.headers });
    outgoing.end(given.body);
  };
  const rules: { rule: GatewayRule } = { rule: () => 'pass' };
  const server: Server = createServer((incoming: IncomingMessage, outgoing) => {
    const decision = rules.rule({ method: incoming.method ?? 'GET', path: new URL(incoming.url ?? '/', 'http://x').pathname });
    if (decision !== 'pass' && 'instead' in decision) {
      incoming.resume();
      answer(outgoing, decision.instead);
      return;
    }
    if (decision !== 'pass' && 'late' in decision) {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        answer(outgoing, decision.late);
        void decision.until.then(() => {
          const upstream = httpRequest({ host: '127.0.0.1', port: venuePort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (reply) => reply.resume());
          upstream.on('error', () => undefined);
          upstream.end(Buffer.concat(chunks));
        });
      });
      return;
    }
    const passOn = (): void => {
      const upstream = httpRequest({ host: '127.0.0.1', port: venuePort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (reply) => {
        if (decision !== 'pass' && 'after' in decision) {
          reply.resume();
          answer(outgoing, decision.after);
          return;
        }
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      });
      incoming.pipe(upstream);
    };
    if (decision !== 'pass' && 'held' in decision) void decision.held.then(passOn);
    else passOn();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get rule() {
      return rules.rule;
    },
    set rule(rule: GatewayRule) {
      rules.rule = rule;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
