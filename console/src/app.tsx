// The console: who is signed in decides what is shown; the URL fragment decides which screen.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, SESSION_LOST } from './api';
import { navigate, useRoute } from './router';
import { isAdmin, loadSession, type Session } from './session';
import { AccountScreen } from './screens/account';
import { AccountsScreen } from './screens/accounts';
import { AuditScreen } from './screens/audit';
import { ProfileScreen } from './screens/profile';
import { ReportsScreen } from './screens/reports';
import { FirstPassword } from './screens/password';
import { NAV, Shell } from './screens/shell';
import { SignIn } from './screens/sign-in';
import { SystemScreen } from './screens/system';
import { TeamsScreen } from './screens/teams';
import { TokensScreen } from './screens/tokens';
import { Failed, Loading } from './ui/states';

type SessionState =
  | { state: 'checking' }
  | { state: 'signed-out' }
  | { state: 'failed'; error: unknown }
  | { state: 'in'; session: Session };

export function App() {
  const [auth, setAuth] = useState<SessionState>({ state: 'checking' });
  /** The screen an address without one opens. */
  const [home, setHome] = useState('profile');
  const route = useRoute();
  const check = (landing?: string) =>
    loadSession().then(
      (session) => {
        if (landing && !session.password_change_required) setHome(landing);
        setAuth({ state: 'in', session });
      },
      (error) =>
        setAuth(
          error instanceof ApiError && error.status === 401 ? { state: 'signed-out' } : { state: 'failed', error },
        ),
    );
  useEffect(() => {
    void check();
    const lost = () => setAuth({ state: 'signed-out' });
    addEventListener(SESSION_LOST, lost);
    return () => removeEventListener(SESSION_LOST, lost);
  }, []);
  // Move focus to the new screen's heading target, as a page load would, for keyboard and screen readers.
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [route.parts[0]]);

  if (auth.state === 'checking') return <Loading label="Checking your session" />;
  if (auth.state === 'failed') return <Failed error={auth.error} retry={() => void check()} />;
  if (auth.state === 'signed-out') return <SignIn onSignedIn={() => void check()} />;

  const { session } = auth;
  // The server refuses everything else to this session; the console asks for the new password.
  if (session.password_change_required)
    return (
      <FirstPassword
        username={session.username}
        // The first administrator's next task is the accounts of the people who will use the instance.
        onChanged={() => void check(isAdmin(session) ? 'accounts' : 'profile')}
        onSignOut={() =>
          void api('/api/core/account/logout', { method: 'POST' }).finally(() => setAuth({ state: 'signed-out' }))
        }
      />
    );
  const allowed = NAV.filter((n) => n.show(session)).map((n) => n.id);
  const screen =
    route.parts[0] && allowed.includes(route.parts[0]) ? route.parts[0] : allowed.includes(home) ? home : 'profile';
  if (route.parts[0] !== screen) queueMicrotask(() => navigate(screen));
  document.title = `${NAV.find((n) => n.id === screen)?.label ?? 'Console'} · Platform Core`;
  return (
    <Shell session={session} current={screen} onSignedOut={() => setAuth({ state: 'signed-out' })}>
      {screen === 'accounts' && !route.parts[1] && <AccountsScreen />}
      {screen === 'accounts' && route.parts[1] && <AccountScreen key={route.parts[1]} username={route.parts[1]} />}
      {screen === 'teams' && <TeamsScreen selected={route.parts[1]} />}
      {screen === 'profile' && <ProfileScreen />}
      {screen === 'tokens' && <TokensScreen session={session} />}
      {screen === 'reports' && <ReportsScreen session={session} parts={route.parts.slice(1)} />}
      {screen === 'audit' && <AuditScreen />}
      {screen === 'system' && <SystemScreen admin={isAdmin(session)} />}
    </Shell>
  );
}
