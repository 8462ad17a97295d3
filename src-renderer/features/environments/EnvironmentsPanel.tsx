// Environments: switch, edit the development and production addresses, confirmation per environment, the
// pre-trade limits that hold an order, and the connection's state and latency. Production is marked in red here
// and on every panel.
import { useState } from 'react';
import type { Environment, PreTradeSettings } from '../../../src-shared/ipc/contract';
import { shownLatency } from '../../stores/connection-view';
import { attempt } from '../../stores/desk-actions';
import { useDesk } from '../../stores/desk-store';
import { errorNotice } from '../../stores/notices-slice';
import { LIMIT_WORDS, limitSummary, limitsEdited, saveLimits, type LimitErrors, type LimitField, type LimitsDraft } from './pre-trade-limits';
import { Panel } from '../../ui/Panel';
import { FieldError, invalidMarks } from '../../ui/field-error';
import { VenueStatusPanel } from '../venue-status/VenueStatusPanel';
import { connectionStateText } from '../workspace/DeskBar';

function Addresses(props: { env: Environment }): React.JSX.Element {
  const { env } = props;
  const [baseUrl, setBaseUrl] = useState(env.baseUrl);
  const [wsUrl, setWsUrl] = useState(env.wsUrl);
  if (env.id === 'local') return <span className="muted">{env.baseUrl || 'embedded venue'}</span>;
  const id = env.id;
  return (
    <form className="inline" aria-label={`${env.name} addresses`} onSubmit={(e) => {
      e.preventDefault();
      void attempt('environments.configure', { id, baseUrl, wsUrl }).then((v) => v && useDesk.getState().setEnvironments(v));
    }}>
      {/* Named in the box: two empty boxes side by side did not say which address goes where. */}
      <input aria-label={`${env.name} REST URL`} placeholder="REST https://…" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} size={24} />
      <input aria-label={`${env.name} WebSocket URL`} placeholder="WebSocket wss://…" value={wsUrl} onChange={(e) => setWsUrl(e.target.value)} size={24} />
      <button type="submit">Save</button>
    </form>
  );
}

/**
 * The limits every environment's orders are checked against before they leave the desk: an order past one is
 * held, saying which, and sent only if the trader says so. The desk judges the values; its refusal shows by its box.
 */
function PreTradeLimits(props: { current: PreTradeSettings }): React.JSX.Element {
  const { current } = props;
  const [draft, setDraft] = useState<LimitsDraft>({ ...current });
  const [errors, setErrors] = useState<LimitErrors>({});
  const [saving, setSaving] = useState(false);
  const edited = limitsEdited(draft, current);
  const box = (field: LimitField): React.JSX.Element => (
    <label>
      {LIMIT_WORDS[field]}
      <input
        inputMode="decimal" autoComplete="off" size={12} placeholder="off" aria-label={LIMIT_WORDS[field]} value={draft[field]}
        onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
        {...invalidMarks(`limits-${field}-error`, errors[field])}
      />
      <span className="muted"> now {limitSummary(field, current[field])}</span>
      <FieldError id={`limits-${field}-error`} text={errors[field]} />
    </label>
  );
  return (
    <form className="inline limits" aria-label="Pre-trade limits" onSubmit={(e) => {
      e.preventDefault();
      setSaving(true);
      void saveLimits(draft, current).then((outcome) => {
        setSaving(false);
        if ('settings' in outcome) {
          setErrors({});
          useDesk.getState().setSettings(outcome.settings);
          return;
        }
        setErrors(outcome.errors);
        if (outcome.other !== undefined) useDesk.getState().notify(errorNotice(outcome.ref, outcome.other));
      });
    }}>
      <p className="muted">Orders past a limit are held before they are sent, saying why; leave a box empty to turn its check off.</p>
      {box('maxDeviationPercent')}
      {box('maxNotional')}
      <button type="submit" disabled={saving || !edited}>Save limits</button>
    </form>
  );
}

/** The desk switches to Local always, to another environment once its REST address is saved (the desk refuses it before). */
function switchable(env: Environment): boolean {
  return env.id === 'local' || env.baseUrl !== '';
}

export function EnvironmentsPanel(): React.JSX.Element {
  const view = useDesk((s) => s.environments);
  const connection = useDesk((s) => s.connection);
  const settings = useDesk((s) => s.settings);
  const latency = shownLatency(connection);

  const switchTo = (id: Environment['id']): void => {
    void attempt('environments.switch', { id }).then(async (c) => {
      if (c !== undefined) useDesk.getState().setConnection(c);
      const v = await attempt('environments.list', {});
      if (v !== undefined) useDesk.getState().setEnvironments(v);
    });
  };
  const setConfirm = (id: Environment['id'], on: boolean): void => {
    void attempt('settings.update', { confirmOrders: { [id]: on } }).then((s) => s && useDesk.getState().setSettings(s));
  };

  return (
    <Panel title="Environments">
      {connection !== undefined && (
        <p className={connection.production ? 'status production-text' : 'status'} role="status" aria-label="Connection">
          {connection.environment}: {connectionStateText(connection.state)}
          {latency !== undefined && ` · ${latency}`}
          {connection.readOnly === true && ' · read-only key'}
          {connection.detail !== '' && <span className="muted"> · {connection.detail}</span>}
        </p>
      )}
      {view?.secretStorage.notice !== undefined && <p className="note">{view.secretStorage.notice}</p>}
      {/* A table wider than a narrow panel scrolls sideways on its own, not the whole panel with it. */}
      <div className="grid-scroll">
        <table aria-label="Environments" className="grid">
          <thead><tr><th>Environment</th><th>Addresses</th><th>Confirm orders</th><th>Switch</th></tr></thead>
          <tbody>
            {view?.environments.map((env) => (
              <tr key={env.id} className={env.production ? 'production-row' : undefined}>
                <th scope="row">{env.name}{env.production && <span className="badge production-badge">PRODUCTION</span>}</th>
                <td><Addresses key={`${env.baseUrl}|${env.wsUrl}`} env={env} /></td>
                <td>
                  <input type="checkbox" aria-label={`Confirm orders in ${env.name}`} checked={settings?.confirmOrders[env.id] ?? env.confirmOrders} onChange={(e) => setConfirm(env.id, e.target.checked)} />
                </td>
                <td>
                  {view.active === env.id ? (
                    <strong>active</strong>
                  ) : (
                    <>
                      {/* Offered with nothing saved, the switch drew the desk's refusal in the API's words. */}
                      <button type="button" disabled={!switchable(env)} aria-describedby={switchable(env) ? undefined : `switch-${env.id}-hint`} onClick={() => switchTo(env.id)}>Switch to {env.name}</button>
                      {!switchable(env) && <span id={`switch-${env.id}-hint`} className="muted"> save its addresses first</span>}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {settings !== undefined && <PreTradeLimits key={`${settings.preTrade.maxDeviationPercent}|${settings.preTrade.maxNotional}`} current={settings.preTrade} />}
      <VenueStatusPanel />
    </Panel>
  );
}
