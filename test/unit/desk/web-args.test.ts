import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWebArgs } from '../../../src-main/web/args';

describe('npm run web options', () => {
  it('reads --port and --data', () => {
    expect(parseWebArgs(['--port', '0', '--data', 'tmp/desk'])).toEqual({ port: 0, dataDir: resolve('tmp/desk') });
    expect(parseWebArgs(['--data', '/x', '--port', '65535'])).toEqual({ port: 65535, dataDir: '/x' });
  });

  it.each([
    [[], /--port is required/],
    [['--port', '80'], /--data is required/],
    [['--port', '-1', '--data', 'x'], /--port must be a whole number/],
    [['--port', '65536', '--data', 'x'], /--port must be a whole number/],
    [['--port', '1e3', '--data', 'x'], /--port must be a whole number/],
    [['--port', '--data', 'x'], /--port needs a value/],
    [['--port', '1', '--port', '2', '--data', 'x'], /given twice/],
    [['--host', '0.0.0.0'], /unknown option "--host"/],
  ])('refuses %j in one line', (argv, message) => {
    const answer = parseWebArgs(argv);
    expect(typeof answer).toBe('string');
    expect(answer).toMatch(message);
    expect(answer).not.toContain('\n');
  });
});
