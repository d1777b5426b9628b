// The signed-in user as the server sees them (GET /api/core/account/session). The JWT itself
// stays in the HttpOnly cookie: nothing here is stored in the browser.
import { api } from './api';

export interface Session {
  username: string;
  user_id: string;
  via: 'jwt' | 'api_token';
  expires_at: string | null;
  roles: string[];
  /** The password is one-time: it must be replaced before anything else is open. */
  password_change_required: boolean;
}

export const loadSession = (): Promise<Session> => api<Session>('/api/core/account/session');

export const isAdmin = (s: Session): boolean => s.roles.includes('sys_administrator');
export const mayCreateTokens = (s: Session): boolean => s.roles.includes('sys_tokens') || isAdmin(s);
