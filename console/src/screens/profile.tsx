// The signed-in user's own profile: the fields the API lets a user edit, their teams (the
// primary one chosen here), roles and apps (read only), and the application context.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { ErrorText, Failed, Loading } from '../ui/states';
import { PasswordForm } from './password';

interface ProfileUser {
  username: string;
  phonenumber: string;
  team_id: string;
  user_app_name: string;
  user_first_name: string;
  user_last_name: string;
  user_color: string;
  user_short: string;
  user_currency: string;
}

export interface Profile {
  user: ProfileUser;
  teams?: Array<{ team_id: string; team_short: string; team_name: string; teamuser_lvl: string | null }>;
  roles?: string[];
  apps?: string[];
}

type Editable = Pick<
  ProfileUser,
  'user_first_name' | 'user_last_name' | 'phonenumber' | 'user_short' | 'user_currency'
>;

/** The editable profile fields; `username`: an administrator editing another account. */
export function ProfileForm({
  profile,
  onSaved,
  username,
}: {
  profile: Profile;
  onSaved: () => void;
  username?: string;
}) {
  const u = profile.user;
  const [fields, setFields] = useState<Editable>({
    user_first_name: u.user_first_name,
    user_last_name: u.user_last_name,
    phonenumber: u.phonenumber,
    user_short: u.user_short,
    user_currency: u.user_currency,
  });
  const [teamId, setTeamId] = useState(profile.user.team_id);
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [fields, teamId]);
  const save = useAction(async () => {
    const body: Record<string, string> = { ...fields, team_id: teamId, ...(username ? { username } : {}) };
    if (body.user_short === '') delete body.user_short;
    await api('/api/core/account/profile-update', { method: 'POST', body });
    setSaved(true);
    onSaved();
  });
  const set = (k: keyof Editable) => (v: string) => setFields({ ...fields, [k]: v });
  return (
    <form
      class="grid-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <TextField label="First name" value={fields.user_first_name} onInput={set('user_first_name')} maxLength={256} />
      <TextField label="Last name" value={fields.user_last_name} onInput={set('user_last_name')} maxLength={256} />
      <TextField
        label="Phone number"
        value={fields.phonenumber}
        onInput={set('phonenumber')}
        pattern="[0-9 +()\-]{0,32}"
      />
      <TextField label="Initials" value={fields.user_short} onInput={set('user_short')} maxLength={4} />
      <TextField
        label="Currency"
        value={fields.user_currency}
        onInput={set('user_currency')}
        pattern="[A-Z]{3}"
        hint="ISO 4217, e.g. EUR"
      />
      <div class="field">
        <label for="primary-team">Primary team</label>
        <select id="primary-team" value={teamId} onChange={(e) => setTeamId((e.target as HTMLSelectElement).value)}>
          {(profile.teams ?? []).map((t) => (
            <option key={t.team_id} value={t.team_id}>
              {t.team_name} ({t.team_short})
            </option>
          ))}
        </select>
      </div>
      <div class="form-end">
        <ErrorText error={save.error} />
        {saved && (
          <p class="saved" role="status">
            Saved.
          </p>
        )}
        <button type="submit" disabled={save.busy}>
          Save profile
        </button>
      </div>
    </form>
  );
}

function ContextPicker({ profile, onChanged }: { profile: Profile; onChanged: () => void }) {
  const apps = profile.apps ?? [];
  const change = useAction(async (app: string) => {
    await api(`/api/core/account/context/${encodeURIComponent(app)}`, { method: 'POST' });
    onChanged();
  });
  if (apps.length === 0) return <p>No application is open to you yet.</p>;
  return (
    <div class="field">
      <label for="context">Application context</label>
      <select
        id="context"
        value={profile.user.user_app_name}
        onChange={(e) => void change.run((e.target as HTMLSelectElement).value)}
        disabled={change.busy}
      >
        {profile.user.user_app_name === '' && <option value="">(none)</option>}
        {apps.map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
      <ErrorText error={change.error} />
    </div>
  );
}

export function ProfileScreen() {
  const [profile, reload] = useAsync(() => api<Profile>('/api/core/account/profile'), []);
  return (
    <>
      <h1>My profile</h1>
      {profile.state === 'loading' && <Loading rows={6} />}
      {profile.state === 'failed' && <Failed error={profile.error} retry={reload} />}
      {profile.state === 'loaded' && (
        <>
          <p class="lead">
            Signed in as <strong>{profile.data.user.username}</strong>.
          </p>
          <section aria-labelledby="details">
            <h2 id="details">Details</h2>
            <ProfileForm profile={profile.data} onSaved={reload} />
          </section>
          <section aria-labelledby="password-h">
            <h2 id="password-h">Password</h2>
            <PasswordForm username={profile.data.user.username} onChanged={reload} />
          </section>
          <section aria-labelledby="context-h">
            <h2 id="context-h">Application</h2>
            <ContextPicker profile={profile.data} onChanged={reload} />
          </section>
          <section aria-labelledby="access">
            <h2 id="access">Roles and teams</h2>
            <p>Roles: {(profile.data.roles ?? []).join(', ') || 'none'}</p>
            <p>Teams: {(profile.data.teams ?? []).map((t) => t.team_name).join(', ') || 'none'}</p>
          </section>
        </>
      )}
    </>
  );
}
