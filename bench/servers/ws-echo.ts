// The WebSocket baseline: a bare `ws` server that echoes every frame. Prints its URL when listening.
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
wss.on('listening', () => {
  const address = wss.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  process.stdout.write(`ready ws://127.0.0.1:${address.port}\n`);
});
