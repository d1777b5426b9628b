// Sign-in: the login endpoint with createCookie, so the session lives in the HttpOnly cookie.
// The token in the answer is deliberately ignored: the console never holds the JWT.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { TextField } from '../ui/controls';
import { useAction } from '../ui/async';
import { ErrorText, Progress } from '../ui/states';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction(async () => {
    await api('/api/core/account/login', { method: 'POST', body: { username, password, createCookie: true } });
    setPassword('');
    onSignedIn();
  });
  return (
    <main class="sign-in">
      <h1>Platform Core</h1>
      <p class="lead">Sign in to the admin console.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void login.run();
        }}
      >
        <TextField label="Username" value={username} onInput={setUsername} autocomplete="username" required />
        <TextField
          label="Password"
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="current-password"
          required
        />
        <ErrorText error={login.error} />
        <button type="submit" disabled={login.busy}>
          {login.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Progress active={login.busy} label="Signing in" />
      </form>
      <p class="hint">
        First start? The administrator (<code>admin</code> by default) has a one-time password in the file{' '}
        <code>initial-admin-password</code> of the server's data directory (<code>data/</code> by default), unless the
        operator set one with <code>PLATFORM_ADMIN_PASSWORD</code>.
      </p>
    </main>
  );
}
