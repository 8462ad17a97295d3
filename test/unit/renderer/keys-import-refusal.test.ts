/**
 * A key import the bridge refuses for its shape puts each refusal beside the box it is about, by the field path the
 * bridge names (issues, 3c582d4): a secret too short, or the key pasted as its secret, is said beside the secret box,
 * not only in a general notice away from the form. The bridge is the real dispatcher.
 */
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../src-main/desk/desk-error';
import type { Request, Response } from '../../../src-shared/ipc/contract';
import { importRefusal, sendImport } from '../../../src-renderer/features/keys/KeysPanel';
import { dispatchingBridge, type DispatchingBridge } from './dispatching-bridge';

const STORED: Response<'keys.import'> = {
  key: { environment: 'development', apiKey: 'nk_0123456789abcdef01234567', name: 'Imported key', readOnly: false, expiredAt: '0', createdAt: '0', origin: 'imported', active: false, storedIn: 'keychain' },
  note: 'The secret is stored in the system keychain; it is not shown again.',
};

function bridge(answer: (request: Request<'keys.import'>) => Response<'keys.import'> = () => STORED): DispatchingBridge<'keys.import'> {
  return dispatchingBridge('keys.import', answer);
}

const form = { apiKey: 'nk_0123456789abcdef01234567', apiSecret: 'c2VjcmV0LXRoYXQtaXMtbG9uZy1lbm91Z2g', userId: '', name: '', use: false };

describe('importing a key the bridge refuses for its shape', () => {
  it('puts a secret too short, or the key given as its secret, beside the secret box, and sends nothing', async () => {
    const desk = bridge();
    expect(await sendImport({ ...form, apiSecret: 'x' }, 'development', desk.send)).toEqual({ errors: { api_secret: expect.stringMatching(/^must be at least 16 characters/) } });
    expect(await sendImport({ ...form, apiSecret: form.apiKey }, 'development', desk.send)).toEqual({ errors: { api_secret: expect.stringMatching(/^is the API key itself/) } });
    expect(desk.sent).toEqual([]);
  });

  it('stores a well-formed one', async () => {
    const desk = bridge();
    expect(await sendImport(form, 'development', desk.send)).toEqual({ stored: STORED });
    expect(desk.sent).toHaveLength(1);
  });

  it('keeps a refusal that names no box whole, for the notice', async () => {
    const desk = bridge(() => {
      throw new DeskError('E0001_AuthRequired', 'Development refused this key (not authenticated); it was not stored');
    });
    const outcome = await sendImport(form, 'development', desk.send);
    expect(outcome).toMatchObject({ errors: {}, refused: { ref: 'E0001_AuthRequired', message: expect.stringMatching(/refused this key/) } });
  });

  it('places by the path, not the wording, and keeps what it cannot place', () => {
    expect(importRefusal([{ path: 'api_secret', message: 'reworded' }])).toEqual({ errors: { api_secret: 'reworded' }, unplaced: false });
    expect(importRefusal([{ path: 'api_secret', message: 'first' }, { path: 'api_secret', message: 'second' }, { path: 'environment', message: 'bad' }])).toEqual({ errors: { api_secret: 'first' }, unplaced: true });
  });
});
