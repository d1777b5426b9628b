// One account (sys_administrator): its profile, status and the actions on it (lock, unlock,
// cancel, reactivate, password, copy, context), roles, teams, tokens and recent audit entries.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { href } from '../router';
import { Confirm, TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading } from '../ui/states';
import { type AccountItem, statusOf } from './accounts';
import { type AuditEntry, AuditTable } from './audit';
import { type Profile, ProfileForm } from './profile';
import { type TokenRecord, TokenTable } from './tokens';

/** The profile with every dataset (an administrator's view always has them). */
type FullProfile = Profile & Required<Pick<Profile, 'teams' | 'roles' | 'apps'>>;

interface Details {
  profile: FullProfile;
  item: AccountItem;
  tokens: TokenRecord[];
  audit: AuditEntry[];
}

const path = (...parts: string[]) => `/${parts.map(encodeURIComponent).join('/')}`;

async function loadDetails(username: string, signal: AbortSignal): Promise<Details> {
  const [profile, list, tokens, audit] = await Promise.all([
    api<Profile>(`/api/core/account/profile${path(username)}`, { signal }),
    api<{ items: AccountItem[] }>('/api/core/account/list', { query: { username }, signal }),
    api<{ items: TokenRecord[] }>(`/api/core/token/user${path(username)}`, { signal }),
    api<{ entries: AuditEntry[] }>('/api/core/audit', { query: { user: username, limit: 10 }, signal }),
  ]);
  const item = list.items[0];
  if (!item) throw new Error(`No account ${username}`);
  const full = { ...profile, teams: profile.teams ?? [], roles: profile.roles ?? [], apps: profile.apps ?? [] };
  return { profile: full, item, tokens: tokens.items, audit: audit.entries };
}

type Doomed = 'cancel' | null;

function StatusActions({ d, onChanged }: { d: Details; onChanged: () => void }) {
  const u = d.item.username;
  const [confirm, setConfirm] = useState<Doomed>(null);
  const act = useAction(async (action: 'lock' | 'unlock' | 'cancel' | 'reactivate') => {
    await api(`/api/core/account/${action}${path(u)}`, { method: 'POST' });
    onChanged();
  });
  const status = statusOf(d.item);
  return (
    <div class="actions-row">
      {status === 'active' && (
        <button type="button" class="secondary" onClick={() => void act.run('lock')} disabled={act.busy}>
          Lock
        </button>
      )}
      {status === 'locked' && (
        <button type="button" class="secondary" onClick={() => void act.run('unlock')} disabled={act.busy}>
          Unlock
        </button>
      )}
      {status !== 'cancelled' ? (
        <button type="button" class="danger" onClick={() => setConfirm('cancel')} disabled={act.busy}>
          Cancel account
        </button>
      ) : (
        <button type="button" onClick={() => void act.run('reactivate')} disabled={act.busy}>
          Reactivate
        </button>
      )}
      <ErrorText error={act.error} />
      <Confirm
        open={confirm === 'cancel'}
        title={`Cancel the account ${u}?`}
        confirmLabel="Cancel the account"
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          void act.run('cancel');
        }}
      >
        <p>
          {u} can no longer sign in, and every session and API token of the account stops working at once. The apps'
          cleanup hook (user_cancel) runs now. Its data stays: an administrator can reactivate the account later.
        </p>
      </Confirm>
    </div>
  );
}

function Roles({ d, onChanged }: { d: Details; onChanged: () => void }) {
  const u = d.item.username;
  const [grantable] = useAsync(
    () => api<{ items: Array<{ name: string; description: string }> }>('/api/core/roles'),
    [],
  );
  const [role, setRole] = useState('');
  const change = useAction(async (action: 'grant' | 'revoke', r: string) => {
    await api(`/api/core/account/role/${action}${path(u, r)}`, { method: 'POST' });
    setRole('');
    onChanged();
  });
  const offered =
    grantable.state === 'loaded' ? grantable.data.items.filter((r) => !d.profile.roles.includes(r.name)) : [];
  return (
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      {d.profile.roles.length === 0 ? (
        <p>No roles.</p>
      ) : (
        <ul class="chips">
          {d.profile.roles.map((r) => (
            <li key={r}>
              {r}{' '}
              <button type="button" class="small secondary" onClick={() => void change.run('revoke', r)}>
                Revoke<span class="visually-hidden"> {r}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (role) void change.run('grant', role);
        }}
      >
        <div class="field">
          <label for="grant-role">Grant a role</label>
          <select id="grant-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)}>
            <option value="">choose…</option>
            {offered.map((r) => (
              <option key={r.name} value={r.name}>
                {r.name} — {r.description}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={!role || change.busy}>
          Grant
        </button>
      </form>
      <ErrorText error={change.error} />
    </section>
  );
}

function Teams({ d, onChanged }: { d: Details; onChanged: () => void }) {
  const u = d.item.username;
  const [all] = useAsync(
    () => api<{ items: Array<{ team_short: string; team_name: string }> }>('/api/core/team/browse'),
    [],
  );
  const [team, setTeam] = useState('');
  const change = useAction(async (action: 'add' | 'remove' | 'primary', short: string, teamId?: string) => {
    if (action === 'primary')
      await api('/api/core/account/profile-update', { method: 'POST', body: { username: u, team_id: teamId } });
    else await api(`/api/core/team/member/${action}${path(short, u)}`, { method: 'POST' });
    setTeam('');
    onChanged();
  });
  const mine = new Set(d.profile.teams.map((t) => t.team_short));
  return (
    <section aria-labelledby="teams-h">
      <h2 id="teams-h">Teams</h2>
      <ul class="chips">
        {d.profile.teams.map((t) => (
          <li key={t.team_id}>
            {t.team_name} ({t.team_short}){t.team_id === d.profile.user.team_id ? ', primary' : ''}{' '}
            {t.team_id !== d.profile.user.team_id && (
              <button
                type="button"
                class="small secondary"
                onClick={() => void change.run('primary', t.team_short, t.team_id)}
              >
                Make primary<span class="visually-hidden"> {t.team_short}</span>
              </button>
            )}{' '}
            {d.profile.teams.length > 1 && (
              <button type="button" class="small secondary" onClick={() => void change.run('remove', t.team_short)}>
                Remove<span class="visually-hidden"> from {t.team_short}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (team) void change.run('add', team);
        }}
      >
        <div class="field">
          <label for="add-team">Add to a team</label>
          <select id="add-team" value={team} onChange={(e) => setTeam((e.target as HTMLSelectElement).value)}>
            <option value="">choose…</option>
            {all.state === 'loaded' &&
              all.data.items
                .filter((t) => !mine.has(t.team_short))
                .map((t) => (
                  <option key={t.team_short} value={t.team_short}>
                    {t.team_name} ({t.team_short})
                  </option>
                ))}
          </select>
        </div>
        <button type="submit" disabled={!team || change.busy}>
          Add
        </button>
      </form>
      <ErrorText error={change.error} />
    </section>
  );
}

function MoreActions({ d, onChanged }: { d: Details; onChanged: () => void }) {
  const u = d.item.username;
  const [password, setPassword] = useState('');
  const [source, setSource] = useState('');
  const [done, setDone] = useState('');
  const act = useAction(async (what: 'password' | 'copy' | 'context', value: string) => {
    if (what === 'password')
      await api(`/api/core/account/password${path(u)}`, { method: 'POST', body: { password: value } });
    if (what === 'copy') await api(`/api/core/account/copy${path(value, u)}`, { method: 'POST' });
    if (what === 'context') await api(`/api/core/account/context${path(value, u)}`, { method: 'POST' });
    setDone(
      what === 'password'
        ? 'Password set: every session of the account has ended.'
        : what === 'copy'
          ? `Roles and teams of ${value} added.`
          : `Application context set to ${value}.`,
    );
    setPassword('');
    onChanged();
  });
  return (
    <section aria-labelledby="more-h">
      <h2 id="more-h">Password, copy, context</h2>
      <form class="inline-form" onSubmit={(e) => (e.preventDefault(), void act.run('password', password))}>
        <TextField
          label="New password"
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="new-password"
          required
        />
        <button type="submit" disabled={act.busy}>
          Set password
        </button>
      </form>
      <form class="inline-form" onSubmit={(e) => (e.preventDefault(), void act.run('copy', source))}>
        <TextField
          label="Copy roles and teams from"
          value={source}
          onInput={setSource}
          hint="another account's username"
          required
        />
        <button type="submit" disabled={act.busy}>
          Copy
        </button>
      </form>
      <div class="field">
        <label for="acc-context">Application context</label>
        <select
          id="acc-context"
          value={d.profile.user.user_app_name}
          onChange={(e) => void act.run('context', (e.target as HTMLSelectElement).value)}
        >
          {d.profile.user.user_app_name === '' && <option value="">(none)</option>}
          {d.profile.apps.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      <ErrorText error={act.error} />
      {done && (
        <p class="saved" role="status">
          {done}
        </p>
      )}
    </section>
  );
}

export function AccountScreen({ username }: { username: string }) {
  const [details, reload] = useAsync((signal) => loadDetails(username, signal), [username]);
  return (
    <>
      <p>
        <a href={href('accounts')}>← Accounts</a>
      </p>
      <h1>{username}</h1>
      {details.state === 'loading' && <Loading rows={8} />}
      {details.state === 'failed' && <Failed error={details.error} retry={reload} />}
      {details.state === 'loaded' && (
        <>
          <p class="lead">
            <span class={`badge ${statusOf(details.data.item)}`} data-testid="account-status">
              {statusOf(details.data.item)}
            </span>{' '}
            {`${details.data.profile.user.user_first_name} ${details.data.profile.user.user_last_name}`.trim()}
          </p>
          <StatusActions d={details.data} onChanged={reload} />
          <section aria-labelledby="acc-profile">
            <h2 id="acc-profile">Profile</h2>
            <ProfileForm profile={details.data.profile} onSaved={reload} username={details.data.item.username} />
          </section>
          <Roles d={details.data} onChanged={reload} />
          <Teams d={details.data} onChanged={reload} />
          <MoreActions d={details.data} onChanged={reload} />
          <section aria-labelledby="acc-tokens">
            <h2 id="acc-tokens">Tokens</h2>
            {details.data.tokens.length === 0 ? (
              <Empty title="No tokens." />
            ) : (
              <TokenTable items={details.data.tokens} caption={`Tokens of ${username}`} />
            )}
          </section>
          <section aria-labelledby="acc-audit">
            <h2 id="acc-audit">Recent audit entries</h2>
            {details.data.audit.length === 0 ? (
              <Empty title="Nothing recorded yet." />
            ) : (
              <AuditTable entries={details.data.audit} caption={`The latest audit entries about ${username}`} />
            )}
          </section>
        </>
      )}
    </>
  );
}
