// API tokens: the user's own (create with name, expiry and roles; the value shown once; delete
// with confirmation), and for administrators every token of every user.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { isAdmin, mayCreateTokens, type Session } from '../session';
import { Confirm, CopyButton, formatTime, TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading } from '../ui/states';
import { TableRegion } from '../ui/table-region';

export interface TokenRecord {
  username: string;
  name: string;
  value: string | null;
  token_created_at: string;
  token_used_at: string | null;
  token_created_by: string;
  token_expires_at?: string | null;
  roles?: string[] | null;
}

export function TokenTable({
  items,
  caption,
  onDelete,
}: {
  items: TokenRecord[];
  caption: string;
  onDelete?: (t: TokenRecord) => void;
}) {
  return (
    <TableRegion label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Owner</th>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Roles</th>
            {onDelete && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((t) => (
            <tr key={`${t.username}/${t.name}`}>
              <td>{t.username}</td>
              <td>{t.name}</td>
              <td>{formatTime(t.token_created_at)}</td>
              <td>{t.token_used_at ? formatTime(t.token_used_at) : 'never'}</td>
              <td>{t.token_expires_at ? formatTime(t.token_expires_at) : 'never'}</td>
              <td>{t.roles ? t.roles.join(', ') : "all of the owner's"}</td>
              {onDelete && (
                <td>
                  <button type="button" class="danger small" onClick={() => onDelete(t)}>
                    Delete<span class="visually-hidden"> token {t.name}</span>
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function CreateToken({ session, onCreated }: { session: Session; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [roles, setRoles] = useState<string[] | null>(null);
  const [created, setCreated] = useState<TokenRecord | null>(null);
  const create = useAction(async () => {
    const body: Record<string, unknown> = {};
    if (days.trim() !== '') body.expires_in_days = Number(days);
    if (roles !== null) body.roles = roles;
    const r = await api<{ item: TokenRecord }>(`/api/core/token/create/${encodeURIComponent(name)}`, {
      method: 'POST',
      body,
    });
    setCreated(r.item);
    setName('');
    onCreated();
  });
  const toggleRole = (role: string, on: boolean) => {
    const current = roles ?? session.roles;
    const next = on ? [...current, role] : current.filter((r) => r !== role);
    setRoles(next.length === session.roles.length ? null : next);
  };
  return (
    <section aria-labelledby="create-token">
      <h2 id="create-token">Create a token</h2>
      {created && (
        <div class="notice success" role="status">
          <p>
            Token <strong>{created.name}</strong> created. Copy its value now:{' '}
            <strong>you will not see it again</strong>.
          </p>
          <p class="token-value">
            <code data-testid="token-value">{created.value}</code> <CopyButton text={created.value ?? ''} />
          </p>
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void create.run();
        }}
      >
        <TextField
          label="Name"
          value={name}
          onInput={setName}
          required
          pattern="[A-Za-z0-9._\-]{1,64}"
          hint="1–64 letters, digits, dot, dash or underscore"
        />
        <TextField
          label="Expires after (days)"
          type="number"
          min={1}
          max={3650}
          value={days}
          onInput={setDays}
          hint="empty: never"
        />
        <fieldset class="roles">
          <legend>Roles the token may use</legend>
          {session.roles.map((r) => (
            <label key={r} class="check">
              <input
                type="checkbox"
                checked={(roles ?? session.roles).includes(r)}
                onChange={(e) => toggleRole(r, (e.target as HTMLInputElement).checked)}
              />
              {r}
            </label>
          ))}
        </fieldset>
        <ErrorText error={create.error} />
        <button type="submit" disabled={create.busy || name === ''}>
          Create token
        </button>
      </form>
    </section>
  );
}

export function TokensScreen({ session }: { session: Session }) {
  const [own, reloadOwn] = useAsync(() => api<{ items: TokenRecord[] }>('/api/core/token/user'), []);
  const admin = isAdmin(session);
  const [all, reloadAll] = useAsync(
    () => (admin ? api<{ items: TokenRecord[] }>('/api/core/token/browse') : Promise.resolve({ items: [] })),
    [admin],
  );
  const [doomed, setDoomed] = useState<TokenRecord | null>(null);
  const remove = useAction(async (t: TokenRecord) => {
    await api(`/api/core/token/delete/${encodeURIComponent(t.name)}/${encodeURIComponent(t.username)}`, {
      method: 'POST',
    });
    reloadOwn();
    reloadAll();
  });
  return (
    <>
      <h1>Tokens</h1>
      <p class="lead">API tokens let scripts call the API as you, without your password.</p>
      {mayCreateTokens(session) && (
        <CreateToken
          session={session}
          onCreated={() => {
            reloadOwn();
            reloadAll();
          }}
        />
      )}
      <section aria-labelledby="my-tokens">
        <h2 id="my-tokens">My tokens</h2>
        <ErrorText error={remove.error} />
        {own.state === 'loading' && <Loading />}
        {own.state === 'failed' && <Failed error={own.error} retry={reloadOwn} />}
        {own.state === 'loaded' &&
          (own.data.items.length === 0 ? (
            <Empty title="You have no tokens yet.">Create one above; its value is shown once.</Empty>
          ) : (
            <TokenTable items={own.data.items} caption="My tokens" onDelete={setDoomed} />
          ))}
      </section>
      {admin && (
        <section aria-labelledby="all-tokens">
          <h2 id="all-tokens">Tokens of all users</h2>
          {all.state === 'loading' && <Loading />}
          {all.state === 'failed' && <Failed error={all.error} retry={reloadAll} />}
          {all.state === 'loaded' &&
            (all.data.items.length === 0 ? (
              <Empty title="No user has a token." />
            ) : (
              <TokenTable items={all.data.items} caption="Tokens of all users" onDelete={setDoomed} />
            ))}
        </section>
      )}
      <Confirm
        open={doomed !== null}
        title="Delete this token?"
        confirmLabel="Delete token"
        danger
        onCancel={() => setDoomed(null)}
        onConfirm={() => {
          const t = doomed;
          setDoomed(null);
          if (t) void remove.run(t);
        }}
      >
        <p>
          Token <strong>{doomed?.name}</strong> of {doomed?.username} stops working at once, for every script that uses
          it. This cannot be undone.
        </p>
      </Confirm>
    </>
  );
}
