// The frame around every screen: the navigation (only what the user may use), who is signed in,
// when the session ends, and sign-out.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { href } from '../router';
import { isAdmin, mayCreateTokens, type Session } from '../session';
import { relativeTime } from '../ui/controls';

interface NavItem {
  id: string;
  label: string;
  show: (s: Session) => boolean;
}

export const NAV: NavItem[] = [
  { id: 'accounts', label: 'Accounts', show: isAdmin },
  { id: 'teams', label: 'Teams', show: isAdmin },
  { id: 'profile', label: 'My profile', show: () => true },
  { id: 'tokens', label: 'Tokens', show: (s) => mayCreateTokens(s) },
  { id: 'reports', label: 'Reports', show: () => true },
  { id: 'audit', label: 'Audit trail', show: isAdmin },
  { id: 'system', label: 'System', show: () => true },
];

function SessionClock({ expiresAt }: { expiresAt: string | null }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(t);
  }, []);
  if (!expiresAt) return null;
  return (
    <span class="session-expiry" title={new Date(expiresAt).toLocaleString()}>
      Session ends {relativeTime(expiresAt)}
    </span>
  );
}

export function Shell(props: {
  session: Session;
  current: string;
  onSignedOut: () => void;
  children: ComponentChildren;
}) {
  const { session } = props;
  const [leaving, setLeaving] = useState(false);
  const signOut = async () => {
    setLeaving(true);
    try {
      await api('/api/core/account/logout', { method: 'POST' });
    } finally {
      setLeaving(false);
      props.onSignedOut();
    }
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Platform Core</span>
        <nav aria-label="Main">
          <ul>
            {NAV.filter((n) => n.show(session)).map((n) => (
              <li key={n.id}>
                <a href={href(n.id)} aria-current={props.current === n.id ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="username">{session.username}</span>
          <SessionClock expiresAt={session.expires_at} />
          <button type="button" class="secondary" onClick={signOut} disabled={leaving}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
