/**
 * API keys: create one on the venue, import one made elsewhere, use, remove or (on the local venue) revoke one. The desk keeps secrets in
 * the keychain and never sends one back across the bridge, so after creation the trader sees the desk's note
 * about where the secret went, not the secret.
 */
import { useState } from 'react';
import type { BridgeErrorIssue, EnvironmentId, Request, Response, StoredKey } from '../../../src-shared/ipc/contract';
import { ENVIRONMENT_NAMES, environmentLabel } from '../../../src-shared/ipc/environment-names';
import { actingEnvironment, isProduction } from '../../stores/connection-view';
import { call, type BridgeError } from '../../bridge';
import { attempt, currentView } from '../../stores/desk-actions';
import { useDesk } from '../../stores/desk-store';
import { errorNotice } from '../../stores/notices-slice';
import { Panel } from '../../ui/Panel';
import { FieldError, invalidMarks, placeIssues, refusalOf } from '../../ui/field-error';
import { formatNanosLocal } from '../../ui/decimal-text';
import { localTimeToNanos } from '../ticket/ticket-check';

/**
 * The keys of the environment the window shows, named in the call: left out, the desk lists those of the one it is
 * on, which after a switch the window has not heard of yet were the next environment's, listed under this one's
 * name. One answered after the window moved on is dropped: the switch reads that environment's keys.
 */
export async function reloadKeys(): Promise<void> {
  const view = currentView();
  const keys = await attempt('keys.list', { environment: actingEnvironment(useDesk.getState()) });
  if (keys !== undefined && view === currentView()) useDesk.getState().setKeys(keys);
}

/** The interface shows a key's scope and expiry only when it makes the key: of an imported one the desk knows neither. */
function scopeOf(k: StoredKey): string {
  if (k.origin === 'imported') return 'not known';
  return k.readOnly ? 'read-only' : 'trading';
}

/**
 * In local time, as the Create form takes it: in UTC a key set to expire at 17:00 in UTC+7 read as 10:00. A key
 * past its expiry says so: the venue refuses it, and the desk would otherwise list it like any other.
 */
function expiryOf(k: StoredKey, nowMs: number): string {
  if (k.origin === 'imported') return 'not known';
  if (k.expiredAt === '0') return 'never';
  const when = formatNanosLocal(k.expiredAt);
  return /^\d+$/.test(k.expiredAt) && BigInt(k.expiredAt) <= BigInt(nowMs) * 1_000_000n ? `expired ${when}` : when;
}

/** Where the secret is; a keychain that cannot be read now, or a secret gone, is said as such, with what to do about it. */
function secretPlaceOf(k: StoredKey): string {
  if (k.storedIn === 'locked') return 'keychain (locked: unlock it to use this key)';
  return k.storedIn === 'missing' ? 'missing: import the key again to use it' : k.storedIn;
}


export interface ImportForm {
  apiKey: string;
  apiSecret: string;
  userId: string;
  name: string;
  use: boolean;
}

/**
 * Always names the environment: left out, the desk files the key under whichever environment it is on when the
 * call arrives, and tries the secret on that venue: a Production secret typed on Development went to Development.
 */
export function importRequest(form: ImportForm, environment: EnvironmentId): Request<'keys.import'> {
  return {
    environment,
    api_key: form.apiKey.trim(),
    api_secret: form.apiSecret,
    use: form.use,
    ...(form.userId.trim() !== '' && { user_id: form.userId.trim() }),
    ...(form.name.trim() !== '' && { name: form.name.trim() }),
  };
}

/** The import form's boxes, by the request field each is sent as. */
export type ImportField = 'api_key' | 'api_secret' | 'user_id' | 'name';
export type ImportErrors = Partial<Record<ImportField, string>>;
const IMPORT_FIELDS: readonly ImportField[] = ['api_key', 'api_secret', 'user_id', 'name'];

/**
 * The import, sent: the key stored, or the refusal by box (each issue by the field path the bridge names, never by
 * reading the message, whose wording may change), and the refusal whole when some of it names no box.
 */
export type ImportOutcome = { stored: Response<'keys.import'> } | { errors: ImportErrors; refused?: BridgeError };

export function importRefusal(issues: readonly BridgeErrorIssue[]): { errors: ImportErrors; unplaced: boolean } {
  return placeIssues(issues, IMPORT_FIELDS);
}

export async function sendImport(form: ImportForm, environment: EnvironmentId, send = call<'keys.import'>): Promise<ImportOutcome> {
  try {
    return { stored: await send('keys.import', importRequest(form, environment)) };
  } catch (err) {
    const refused = refusalOf(err);
    const { errors, unplaced } = importRefusal(refused.issues);
    return unplaced ? { errors, refused } : { errors };
  }
}

/** What the trader is asked before a key is made on Production. */
export function productionKeyQuestion(create: { name: string; readOnly: boolean; use: boolean }): string {
  const scope = create.readOnly ? 'read-only' : 'trading';
  const use = create.use ? ' The desk will trade with it from now on.' : '';
  return `${environmentLabel('production')}: create the ${scope} key ${JSON.stringify(create.name)} on Production?${use}`;
}

/**
 * What the trader is asked before a key is removed from the desk: which environment's key it is (Production in
 * capitals, as every other Production question says), and that the desk stops trading with it if it is in use.
 */
export function removeKeyQuestion(k: Pick<StoredKey, 'environment' | 'apiKey' | 'name' | 'active'>): string {
  const named = k.name === '' ? k.apiKey : `${JSON.stringify(k.name)} (${k.apiKey})`;
  const inUse = k.active ? ' The desk is trading with it now and will stop.' : '';
  const question = `remove the ${ENVIRONMENT_NAMES[k.environment]} key ${named} from the desk? It stays valid on the venue; the desk forgets its secret.${inUse}`;
  return isProduction(k.environment) ? `${environmentLabel(k.environment)}: ${question}` : `${question.charAt(0).toUpperCase()}${question.slice(1)}`;
}

/**
 * The key a row's Use, Remove or Revoke acts on, with the environment the row shows it under: the same key string
 * may be stored for two environments, and the desk does nothing if it has switched to another since the list was drawn.
 */
export function keyAction(k: Pick<StoredKey, 'environment' | 'apiKey'>): Request<'keys.forget'> {
  return { environment: k.environment, api_key: k.apiKey };
}

/**
 * Remove (forget) or revoke a key, then list the keys of the environment the window shows. The desk answers either
 * with the keys of the environment it is on as it answers, and does not say which: after a switch the window had not
 * heard of yet, they were the next environment's, listed under the name the window still showed.
 */
export async function dropKey(method: 'keys.forget' | 'keys.revoke', k: Pick<StoredKey, 'environment' | 'apiKey'>): Promise<void> {
  if ((await attempt(method, keyAction(k))) !== undefined) await reloadKeys();
}

function KeyRow(props: { k: StoredKey }): React.JSX.Element {
  const { k } = props;
  return (
    <tr>
      <td>{k.name || '—'}</td>
      <td><code>{k.apiKey}</code></td>
      <td>{k.environment}</td>
      <td>{scopeOf(k)}</td>
      <td>{expiryOf(k, Date.now())}</td>
      <td>{k.origin}</td>
      <td>{secretPlaceOf(k)}</td>
      <td className="pinned">
        {/* No Use for a key whose secret is gone: the desk would drop the session it trades on for one it cannot open. */}
        {k.active ? <strong>in use</strong> : k.storedIn !== 'missing' && (
          <button type="button" aria-label={`Use key ${k.apiKey}`} onClick={() => void attempt('keys.use', keyAction(k)).then((c) => {
            if (c !== undefined) useDesk.getState().setConnection(c);
            return reloadKeys();
          })}>Use</button>
        )}
        <button type="button" aria-label={`Remove key ${k.apiKey}`} onClick={() => {
          if (window.confirm(removeKeyQuestion(k))) {
            void dropKey('keys.forget', k);
          }
        }}>Remove</button>
        {/* Only the local venue can revoke a key; its own user's first key is the desk's and stays. */}
        {k.environment === 'local' && k.origin !== 'bootstrap' && (
          <button type="button" aria-label={`Revoke key ${k.apiKey}`} onClick={() => {
            if (window.confirm(`Revoke key ${k.apiKey} on the local venue? It stops working everywhere, and the desk forgets it.`)) {
              void dropKey('keys.revoke', k);
            }
          }}>Revoke</button>
        )}
      </td>
    </tr>
  );
}

export function KeysPanel(): React.JSX.Element {
  const keys = useDesk((s) => s.keys);
  const [note, setNote] = useState('');
  const [create, setCreate] = useState({ name: '', readOnly: false, expires: '', use: true });
  const [creating, setCreating] = useState(false);
  const [imp, setImp] = useState<ImportForm>({ apiKey: '', apiSecret: '', userId: '', name: '', use: true });
  const [importErrors, setImportErrors] = useState<ImportErrors>({});
  const active = useDesk(actingEnvironment);
  // Until the trader picks one, the environment the desk is on, shown in the form as it changes.
  const [picked, setPicked] = useState<EnvironmentId | undefined>();
  const importFor = picked ?? active;

  const onCreate = async (): Promise<void> => {
    const expiration = localTimeToNanos(create.expires);
    // Asked here and named in the call: the desk makes no key on Production without it, nor on a yes given
    // for another environment than the one it is on when the call arrives.
    const on = active;
    if (isProduction(on) && !window.confirm(productionKeyQuestion(create))) return;
    // One key a submit: the second click of a double click made a second key on the venue, its secret stored too.
    setCreating(true);
    const made = await attempt('keys.create', {
      environment: on,
      name: create.name,
      read_only: create.readOnly,
      use: create.use,
      ...(expiration !== undefined && { expiration_time: expiration }),
      ...(isProduction(on) && { confirmed: on }),
    }).finally(() => setCreating(false));
    if (made === undefined) return;
    setNote(`Created ${made.key.apiKey}. ${made.note}`);
    await reloadKeys();
  };
  const onImport = async (): Promise<void> => {
    const outcome = await sendImport(imp, importFor);
    // Refused, the secret stays in its box: the trader fixes the box named and imports again, where emptied it was
    // to be found again (the venue shows one once, where it was made) over a user id one character too long.
    if (!('stored' in outcome)) {
      setImportErrors(outcome.errors);
      if (outcome.refused !== undefined) useDesk.getState().notify(errorNotice(outcome.refused.ref, outcome.refused.message));
      return;
    }
    // The typed secret leaves the window's memory as soon as the desk has it.
    setImp((s) => ({ ...s, apiSecret: '' }));
    setImportErrors({});
    const { stored } = outcome;
    setNote(`Imported ${stored.key.apiKey} for ${ENVIRONMENT_NAMES[stored.key.environment]}. ${stored.note}`);
    await reloadKeys();
  };
  /** A box of the import form, with the desk's refusal of what it held beside it. */
  const importBox = (field: ImportField, label: string, input: React.InputHTMLAttributes<HTMLInputElement>): React.JSX.Element => {
    const error = importErrors[field];
    // Beside the label, not in it: in it, the refusal would become part of the box's name.
    return (
      <>
        <label>{label} <input autoComplete="off" {...input} {...invalidMarks(`import-${field}-error`, error)} /></label>
        <FieldError id={`import-${field}-error`} text={error} />
      </>
    );
  };

  return (
    <Panel title="API keys" tools={<button type="button" onClick={() => void reloadKeys()}>Refresh</button>}>
      {/* Wider than a one-column panel: the table scrolls sideways under its Actions, not the whole panel. */}
      <div className="grid-scroll">
        <table aria-label="API keys" className="grid">
          <thead><tr><th>Name</th><th>Key</th><th>Environment</th><th>Access</th><th>Expires</th><th>Origin</th><th>Secret in</th><th className="pinned">Actions</th></tr></thead>
          <tbody>{keys.map((k) => <KeyRow key={`${k.environment}/${k.apiKey}`} k={k} />)}</tbody>
        </table>
      </div>
      {note !== '' && <p role="status" className="note">{note}</p>}
      <div className="forms">
        <form aria-label="Create API key" onSubmit={(e) => (e.preventDefault(), void onCreate())}>
          <h3>Create on {ENVIRONMENT_NAMES[active]}</h3>
          <label>Key name <input value={create.name} onChange={(e) => setCreate({ ...create, name: e.target.value })} /></label>
          <label className="check"><input type="checkbox" checked={create.readOnly} onChange={(e) => setCreate({ ...create, readOnly: e.target.checked })} /> Read-only</label>
          <label>Key expires <input type="datetime-local" value={create.expires} onChange={(e) => setCreate({ ...create, expires: e.target.value })} /></label>
          <label className="check"><input type="checkbox" checked={create.use} onChange={(e) => setCreate({ ...create, use: e.target.checked })} /> Trade with it</label>
          <button type="submit" disabled={creating}>Create key</button>
        </form>
        <form aria-label="Import API key" onSubmit={(e) => (e.preventDefault(), void onImport())}>
          <h3>Import</h3>
          <label>For environment
            <select aria-label="Import for environment" value={importFor} onChange={(e) => setPicked(e.target.value as EnvironmentId)}>
              {(['local', 'development', 'production'] as const).map((id) => <option key={id} value={id}>{ENVIRONMENT_NAMES[id]}</option>)}
            </select>
          </label>
          {importBox('api_key', 'API key', { value: imp.apiKey, onChange: (e) => setImp({ ...imp, apiKey: e.target.value }) })}
          {importBox('api_secret', 'API secret', { type: 'password', value: imp.apiSecret, onChange: (e) => setImp({ ...imp, apiSecret: e.target.value }) })}
          {importBox('user_id', 'User id', { value: imp.userId, onChange: (e) => setImp({ ...imp, userId: e.target.value }) })}
          {importBox('name', 'Import name', { value: imp.name, onChange: (e) => setImp({ ...imp, name: e.target.value }) })}
          <label className="check"><input type="checkbox" checked={imp.use} onChange={(e) => setImp({ ...imp, use: e.target.checked })} /> Trade with it</label>
          <button type="submit" disabled={imp.apiKey.trim() === '' || imp.apiSecret === ''}>Import key</button>
        </form>
      </div>
    </Panel>
  );
}
