// Teams (sys_administrator): the list with member counts, creating a team, and one team's
// members (GET /api/core/team/members/{short}) with adding and removing.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { href } from '../router';
import { TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading } from '../ui/states';
import { TableRegion } from '../ui/table-region';
import { escapeControls } from '../../../src/lib/visible-text';

interface Team {
  team_short: string;
  team_name: string;
  team_type: string;
  members: number;
}
interface Member {
  username: string;
  teamuser_lvl: string | null;
  primary: boolean;
  user_first_name: string;
  user_last_name: string;
}

const seg = encodeURIComponent;

function Members({ short, onChanged }: { short: string; onChanged: () => void }) {
  const [members, reload] = useAsync(() => api<{ items: Member[] }>(`/api/core/team/members/${seg(short)}`), [short]);
  const [username, setUsername] = useState('');
  const change = useAction(async (action: 'add' | 'remove', u: string) => {
    await api(`/api/core/team/member/${action}/${seg(short)}/${seg(u)}`, { method: 'POST' });
    setUsername('');
    reload();
    onChanged();
  });
  return (
    <section aria-labelledby="members-h">
      <h2 id="members-h">Members of {short}</h2>
      <form class="inline-form" onSubmit={(e) => (e.preventDefault(), void change.run('add', username))}>
        <TextField label="Add a member" value={username} onInput={setUsername} hint="username" required />
        <button type="submit" disabled={change.busy}>
          Add member
        </button>
      </form>
      <ErrorText error={change.error} />
      {members.state === 'loading' && <Loading />}
      {members.state === 'failed' && <Failed error={members.error} retry={reload} />}
      {members.state === 'loaded' &&
        (members.data.items.length === 0 ? (
          <Empty title="This team has no members." />
        ) : (
          <ul class="member-list">
            {members.data.items.map((m) => (
              <li key={m.username}>
                <a href={href('accounts', m.username)}>{m.username}</a>{' '}
                {escapeControls(`${m.user_first_name} ${m.user_last_name}`.trim())}
                {m.primary ? ' (primary team)' : ''}{' '}
                <button type="button" class="small secondary" onClick={() => void change.run('remove', m.username)}>
                  Remove<span class="visually-hidden"> {m.username}</span>
                </button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

export function TeamsScreen({ selected }: { selected?: string }) {
  const [teams, reload] = useAsync(() => api<{ items: Team[] }>('/api/core/team/browse'), []);
  const [short, setShort] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState('internal');
  const create = useAction(async () => {
    await api('/api/core/team/create', {
      method: 'POST',
      body: { team_short: short, team_name: name, team_type: type },
    });
    setShort('');
    setName('');
    reload();
  });
  return (
    <>
      <h1>Teams</h1>
      <form class="inline-form" onSubmit={(e) => (e.preventDefault(), void create.run())}>
        <TextField label="Short name" value={short} onInput={setShort} pattern="[A-Za-z0-9_.\-]{1,32}" required />
        <TextField label="Team name" value={name} onInput={setName} required />
        <div class="field">
          <label for="team-type">Type</label>
          <select id="team-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
            <option value="internal">internal</option>
            <option value="external">external</option>
          </select>
        </div>
        <button type="submit" disabled={create.busy}>
          Create team
        </button>
      </form>
      <ErrorText error={create.error} />
      {teams.state === 'loading' && <Loading rows={4} />}
      {teams.state === 'failed' && <Failed error={teams.error} retry={reload} />}
      {teams.state === 'loaded' &&
        (teams.data.items.length === 0 ? (
          <Empty title="No teams yet." />
        ) : (
          <TableRegion label="Teams">
            <table>
              <caption>Teams</caption>
              <thead>
                <tr>
                  <th scope="col">Short</th>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Members</th>
                </tr>
              </thead>
              <tbody>
                {teams.data.items.map((t) => (
                  <tr key={t.team_short}>
                    <td>
                      <a
                        href={href('teams', t.team_short)}
                        aria-current={t.team_short === selected ? 'page' : undefined}
                      >
                        {t.team_short}
                      </a>
                    </td>
                    <td>{t.team_name}</td>
                    <td>{t.team_type}</td>
                    <td>{t.members}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        ))}
      {selected && <Members key={selected} short={selected} onChanged={reload} />}
    </>
  );
}
