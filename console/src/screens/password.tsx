// Changing one's own password (POST /api/core/account/password, which needs the current one and
// ends every session of the account), then signing in again with the new one, so the console
// goes on without asking. Also the first sign-in's screen: a one-time password (the generated
// bootstrap administrator's) must be replaced before anything else is open to the session.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { TextField } from '../ui/controls';
import { useAction } from '../ui/async';
import { ErrorText, Progress } from '../ui/states';

// The lowest Settings:PasswordMinLength allows; the server applies the configured one and its other rules.
const MIN_LENGTH = 8;

export function PasswordForm({
  username,
  onChanged,
  submitLabel = 'Change password',
}: {
  username: string;
  onChanged: () => void;
  submitLabel?: string;
}) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const change = useAction(async () => {
    setDone(false);
    if (next !== repeat)
      throw new ApiError(400, 'mismatch', 'The new password and its repetition differ: type the same twice.');
    await api('/api/core/account/password', {
      method: 'POST',
      body: { current_password: current, new_password: next },
    });
    // The change ended every session, this one too: sign in again with the new password.
    await api('/api/core/account/login', { method: 'POST', body: { username, password: next, createCookie: true } });
    setCurrent('');
    setNext('');
    setRepeat('');
    setDone(true);
    onChanged();
  });
  return (
    <form
      class="grid-form"
      aria-label="Change password"
      onSubmit={(e) => {
        e.preventDefault();
        void change.run();
      }}
    >
      {/* For password managers: which account the new password belongs to. */}
      <input type="text" autocomplete="username" value={username} readOnly hidden />
      <TextField
        label="Current password"
        type="password"
        value={current}
        onInput={setCurrent}
        autocomplete="current-password"
        required
      />
      <TextField
        label="New password"
        type="password"
        value={next}
        onInput={setNext}
        autocomplete="new-password"
        minLength={MIN_LENGTH}
        hint="At least 12 characters (unless configured otherwise); not a common password, not containing your username"
        required
      />
      <TextField
        label="New password again"
        type="password"
        value={repeat}
        onInput={setRepeat}
        autocomplete="new-password"
        minLength={MIN_LENGTH}
        required
      />
      <div class="form-end">
        <ErrorText error={change.error} />
        {done && (
          <p class="saved" role="status">
            Password changed. Other sessions of this account have been signed out.
          </p>
        )}
        <button type="submit" disabled={change.busy}>
          {change.busy ? 'Changing…' : submitLabel}
        </button>
        <Progress active={change.busy} label="Changing the password" />
      </div>
    </form>
  );
}

/** Shown instead of the console while the session's password is one-time. */
export function FirstPassword({
  username,
  onChanged,
  onSignOut,
}: {
  username: string;
  onChanged: () => void;
  onSignOut: () => void;
}) {
  return (
    <main class="sign-in" id="main" tabIndex={-1}>
      <h1>Set your password</h1>
      <p class="lead">
        You signed in as <strong>{username}</strong> with a one-time password. Choose your own password to continue; the
        file that held the one-time password is deleted once you have.
      </p>
      <PasswordForm username={username} onChanged={onChanged} submitLabel="Set password and continue" />
      <p>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </p>
    </main>
  );
}
