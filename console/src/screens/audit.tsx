// The audit trail (sys_administrator): newest first, filtered by user, action and time, paged by
// the API's cursor ("Show older").
import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatTime, TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading } from '../ui/states';
import { TableRegion } from '../ui/table-region';
import { escapeControls } from '../../../src/lib/visible-text';

export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  actor: string | null;
  subject: string | null;
  client: string | null;
  via: string | null;
  data: Record<string, unknown>;
}

interface AuditPage {
  entries: AuditEntry[];
  next: string | null;
}

const ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'account_lockout',
  'account_create',
  'account_lock',
  'account_unlock',
  'account_cancel',
  'account_reactivate',
  'role_grant',
  'role_revoke',
  'token_create',
  'token_delete',
  'password_set',
  'srs_render',
];

/** A detail value as one line of text: scalars as they are, lists and objects as compact JSON. */
function detailText(value: unknown): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
    return value.length === 0 ? '(none)' : value.join(', ');
  return JSON.stringify(value);
}

/** An entry's details as "key: value" lines. Text, never markup; controls shown as escapes.
 *  A plain function, not a component, so the table's element tree holds the text itself. */
function auditDetails(data: Record<string, unknown>) {
  const keys = Object.keys(data);
  if (keys.length === 0) return null;
  return (
    <dl class="audit-details">
      {keys.map((k) => (
        <div key={k}>
          <dt>{`${escapeControls(k.replace(/_/g, ' '))}:`}</dt>
          <dd>{escapeControls(detailText(data[k]))}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AuditTable({ entries, caption }: { entries: AuditEntry[]; caption: string }) {
  return (
    <TableRegion label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Action</th>
            <th scope="col">Who</th>
            <th scope="col">To whom</th>
            <th scope="col">From</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {/* The fields are stored text, a failed login's username as typed by anyone: its
              controls are shown as escapes (a bidi override would reorder the cell). */}
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{formatTime(e.at)}</td>
              <td>{escapeControls(e.action)}</td>
              <td>{e.actor === null ? 'command line' : escapeControls(e.actor)}</td>
              <td>{e.subject === null ? '—' : escapeControls(e.subject)}</td>
              <td>
                {e.client === null ? '—' : escapeControls(e.client)}
                {e.via ? ` (${escapeControls(e.via)})` : ''}
              </td>
              <td class="details">{auditDetails(e.data)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

const toIso = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

export function AuditScreen() {
  const [user, setUser] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [filter, setFilter] = useState({ user: '', action: '', from: '', to: '' });
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const query = { user: filter.user, action: filter.action, from: toIso(filter.from), to: toIso(filter.to), limit: 50 };
  const [page, reload] = useAsync(
    async (signal) => {
      const p = await api<AuditPage>('/api/core/audit', { query, signal });
      setOlder([]);
      setNext(p.next);
      return p;
    },
    [filter],
  );
  const more = useAction(async () => {
    if (!next) return;
    const p = await api<AuditPage>('/api/core/audit', { query: { ...query, cursor: next } });
    setOlder((o) => [...o, ...p.entries]);
    setNext(p.next);
  });
  const entries = page.state === 'loaded' ? [...page.data.entries, ...older] : [];
  return (
    <>
      <h1>Audit trail</h1>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ user, action, from, to });
        }}
      >
        <TextField label="User" value={user} onInput={setUser} hint="acting or acted upon" />
        <div class="field">
          <label for="audit-action">Action</label>
          <select id="audit-action" value={action} onChange={(e) => setAction((e.target as HTMLSelectElement).value)}>
            <option value="">all</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <TextField label="From" type="datetime-local" value={from} onInput={setFrom} />
        <TextField label="Until" type="datetime-local" value={to} onInput={setTo} />
        <button type="submit">Filter</button>
      </form>
      {page.state === 'loading' && <Loading rows={8} />}
      {page.state === 'failed' && <Failed error={page.error} retry={reload} />}
      {page.state === 'loaded' &&
        (entries.length === 0 ? (
          <Empty title="No entries match.">Widen the filter or clear it.</Empty>
        ) : (
          <>
            <AuditTable entries={entries} caption="Audit entries, newest first" />
            <ErrorText error={more.error} />
            {next && (
              <button type="button" class="secondary" onClick={() => void more.run()} disabled={more.busy}>
                Show older entries
              </button>
            )}
          </>
        ))}
    </>
  );
}
