import { useEffect, useState } from 'react';
import type { VenueStatus } from '../../../src-shared/ipc/contract';
import { call } from '../../bridge';

const POLL_MS = 1000;

/** The embedded venue's state and addresses: a section of the Environments panel, headed as its other sections are. */
export function VenueStatusPanel(): React.JSX.Element {
  const [status, setStatus] = useState<VenueStatus | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    let live = true;
    const poll = (): void => {
      call('venue.status', {})
        .then((s) => live && (setStatus(s), setError(undefined)))
        .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    };
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  return (
    <section aria-label="Local venue">
      <h3>Local venue</h3>
      {error !== undefined && <p role="alert">{error}</p>}
      {status !== undefined && (
        // What the last read that answered said: beside the error, its state read as the venue's now, which nothing
        // has told since. It stays for its addresses, marked as the last heard.
        <dl className={error === undefined ? 'facts venue-facts' : 'facts venue-facts stale'}>
          <dt>State</dt>
          <dd>{error === undefined ? status.state : `not known: the last read that answered said ${status.state}`}</dd>
          <dt>REST</dt>
          <dd>{status.baseUrl || '—'}</dd>
          <dt>WebSocket</dt>
          <dd>{status.wsUrl || '—'}</dd>
          <dt>Simulator</dt>
          <dd>{status.simulate ? 'on' : 'off'}</dd>
          {status.detail !== '' && (
            <>
              <dt>Detail</dt>
              <dd className="muted">{status.detail}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
