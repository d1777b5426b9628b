// The JSON shapes of the profile (user, teams) and the account list item (docs/api.md), built from
// rows. Defaults for values a user never set are derived here, so every reader sees the same.
import { createHash } from 'node:crypto';
import type { TeamRow, UserRow } from '../db/schema.js';
import { withUtcOffset } from '../lib/time.js';
import type { AccountListItem, ProfileTeam, ProfileUser } from './account-shapes.js';

/** Initials: first letters of first and last name, else the start of the username. */
export function defaultShort(u: Pick<UserRow, 'first_name' | 'last_name' | 'username'>): string {
  const initials = `${u.first_name.trim().charAt(0)}${u.last_name.trim().charAt(0)}`;
  const base =
    initials.length > 0 ? initials : u.username.replace(/[^A-Za-z0-9]/g, '').slice(0, 2) || u.username.slice(0, 2);
  return base.toUpperCase();
}

/** A stable, readable colour per username (same name, same colour, on every instance). */
export function defaultColor(username: string): string {
  const digest = createHash('sha256').update(username.toUpperCase()).digest();
  const hue = ((digest[0]! << 8) | digest[1]!) % 360;
  return hslToHex(hue, 0.55, 0.45);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`.toUpperCase();
}

export function parseProperties(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function profileUser(u: UserRow, primaryTeam: TeamRow): ProfileUser {
  return {
    username: u.username,
    emailconfirmed: u.email_confirmed === 1,
    phonenumber: u.phone_number,
    team_id: primaryTeam.id,
    team_name: primaryTeam.name,
    user_app_name: u.app_name,
    user_first_name: u.first_name,
    user_last_name: u.last_name,
    user_home: u.home,
    user_color: u.color ?? defaultColor(u.username),
    user_short: u.short ?? defaultShort(u),
    user_currency: u.currency,
    user_properties: parseProperties(u.properties),
  };
}

export function profileTeam(t: TeamRow, level: string | null): ProfileTeam {
  return { team_id: t.id, team_short: t.short, team_name: t.name, teamuser_lvl: level, team_type: t.type };
}

export interface AccountListRow extends UserRow {
  team_name: string;
  team_count: number | string;
  role_count: number | string;
}

export function accountListItem(r: AccountListRow, nowIso: string): AccountListItem {
  const locked = r.lockout_end !== null && r.lockout_end > nowIso;
  return {
    id: r.id,
    username: r.username,
    phonenumber: r.phone_number,
    emailconfirmed: r.email_confirmed === 1,
    lockoutenabled: r.lockout_enabled === 1,
    islocked: locked,
    isactive: r.is_active === 1,
    lockoutend: withUtcOffset(r.lockout_end),
    lockoutending: r.lockout_end,
    // An account that never authenticated reports its creation as its last activity.
    lastActivity: r.last_activity ?? r.created_at,
    team_id: r.team_id,
    team_name: r.team_name,
    user_currency: r.currency,
    user_home: r.home,
    user_app_name: r.app_name,
    teams: Number(r.team_count),
    roles: Number(r.role_count),
    user_first_name: r.first_name,
    user_last_name: r.last_name,
    user_color: r.color ?? defaultColor(r.username),
    user_avatar: r.avatar,
    user_short: r.short ?? defaultShort(r),
  };
}
