// The account directory (sys_administrator): its stats, search, filter and sort, paged by the
// server (GET /api/core/account/list), and creating an account.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { href, navigate } from '../router';
import { formatTime, TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading } from '../ui/states';
import { TableRegion } from '../ui/table-region';
import { escapeControls } from '../../../src/lib/visible-text';

export interface AccountItem {
  id: string;
  username: string;
  islocked: boolean;
  isactive: boolean;
  lastActivity: string;
  team_name: string;
  user_first_name: string;
  user_last_name: string;
  roles: number;
  teams: number;
}

interface ListAnswer {
  items: AccountItem[];
  total: number;
  stats: { count: number; locked: number; last_week: number; today: number };
}

const PAGE = 50;

export const statusOf = (a: AccountItem): string => (!a.isactive ? 'cancelled' : a.islocked ? 'locked' : 'active');

function CreateAccount({ onCreated }: { onCreated: (username: string) => void }) {
  const [open, setOpen] = useState(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const create = useAction(async () => {
    await api('/api/core/account/create', {
      method: 'POST',
      body: { username, password, user_first_name: first, user_last_name: last },
    });
    onCreated(username);
  });
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New account
      </button>
    );
  return (
    <section aria-labelledby="new-account">
      <h2 id="new-account">New account</h2>
      <form
        class="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void create.run();
        }}
      >
        <TextField label="Username" value={username} onInput={setUsername} required autocomplete="off" />
        <TextField
          label="Initial password"
          type="password"
          value={password}
          onInput={setPassword}
          required
          autocomplete="new-password"
          hint="at least 12 characters (unless configured otherwise), not common, not containing the username; the user can change it on My profile"
        />
        <TextField label="First name" value={first} onInput={setFirst} />
        <TextField label="Last name" value={last} onInput={setLast} />
        <div class="form-end actions-row">
          <ErrorText error={create.error} />
          <button type="submit" disabled={create.busy}>
            Create account
          </button>
          <button type="button" class="secondary" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

export function AccountsScreen() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState('username');
  const [order, setOrder] = useState('asc');
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState({ q: '', status: '' });
  const [list, reload] = useAsync(
    (signal) =>
      api<ListAnswer>('/api/core/account/list', {
        query: { q: filter.q, status: filter.status, sort, order, limit: PAGE, offset: page * PAGE },
        signal,
      }),
    [filter, sort, order, page],
  );
  const pages = list.state === 'loaded' ? Math.max(1, Math.ceil(list.data.total / PAGE)) : 1;
  return (
    <>
      <h1>Accounts</h1>
      {list.state === 'loaded' && (
        <p class="lead" data-testid="account-stats">
          {list.data.stats.count} accounts, {list.data.stats.locked} locked; {list.data.stats.today} active today,{' '}
          {list.data.stats.last_week} in the last week.
        </p>
      )}
      <CreateAccount onCreated={(u) => navigate('accounts', u)} />
      <form
        class="inline-form filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setFilter({ q, status });
        }}
      >
        <TextField label="Search" type="search" value={q} onInput={setQ} hint="part of a username or name" />
        <div class="field">
          <label for="acc-status">Status</label>
          <select id="acc-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="">any</option>
            <option value="active">active</option>
            <option value="locked">locked</option>
            <option value="cancelled">cancelled</option>
          </select>
        </div>
        <div class="field">
          <label for="acc-sort">Sort by</label>
          <select
            id="acc-sort"
            value={`${sort} ${order}`}
            onChange={(e) => {
              const [s, o] = (e.target as HTMLSelectElement).value.split(' ');
              setSort(s ?? 'username');
              setOrder(o ?? 'asc');
              setPage(0);
            }}
          >
            <option value="username asc">username</option>
            <option value="name asc">name</option>
            <option value="last_activity desc">last activity, newest first</option>
            <option value="created_at desc">created, newest first</option>
            <option value="status asc">status</option>
          </select>
        </div>
        <button type="submit">Search</button>
      </form>
      {list.state === 'loading' && <Loading rows={10} />}
      {list.state === 'failed' && <Failed error={list.error} retry={reload} />}
      {list.state === 'loaded' &&
        (list.data.items.length === 0 ? (
          <Empty title="No account matches.">Change the search or the status filter.</Empty>
        ) : (
          <>
            <TableRegion label="Accounts">
              <table>
                <caption>
                  Accounts {page * PAGE + 1}–{page * PAGE + list.data.items.length} of {list.data.total}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Username</th>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Primary team</th>
                    <th scope="col">Roles</th>
                    <th scope="col">Last activity</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.items.map((a) => (
                    <tr key={a.id}>
                      <td>
                        <a href={href('accounts', a.username)}>{a.username}</a>
                      </td>
                      <td>{escapeControls(`${a.user_first_name} ${a.user_last_name}`.trim()) || '—'}</td>
                      <td>
                        <span class={`badge ${statusOf(a)}`}>{statusOf(a)}</span>
                      </td>
                      <td>{a.team_name}</td>
                      <td>{a.roles}</td>
                      <td>{formatTime(a.lastActivity)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <nav class="pager" aria-label="Pages">
              <button type="button" class="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous page
              </button>
              <span aria-live="polite">
                Page {page + 1} of {pages}
              </span>
              <button type="button" class="secondary" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next page
              </button>
            </nav>
          </>
        ))}
    </>
  );
}
