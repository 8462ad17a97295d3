// A request that reaches the venue while it stops: the interface's error object (7.1) with E0902, as docs/api.md
// promises of every failure, not the web framework's own body.
import { expect, it } from 'vitest';
import { startTestVenue } from '../harness';
import { answerWhileStopping } from '../raw-http';

it('a request pipelined behind one in flight while the venue stops is 503 E0902 in the error object', async () => {
  const v = await startTestVenue();
  const second = await answerWhileStopping(v.baseUrl, () => v.close(), 'GET /assets HTTP/1.1\r\nHost: venue\r\n\r\n');
  expect(second).toMatch(/^HTTP\/1\.1 503 /);
  const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as unknown;
  expect(body).toEqual({ error: { code: 'Unavailable', message: expect.stringMatching(/^E0902_ServiceUnavailable: .+/) as unknown } });
});
