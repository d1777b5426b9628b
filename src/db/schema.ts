// The tables of the instance database, as Kysely sees them. One schema serves SQLite and
// PostgreSQL: ids are UUID text, timestamps fixed-width ISO text (see lib/time.ts), flags 0/1
// integers and JSON documents text, so every query is portable between the two dialects.
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/** 0 or 1: portable boolean. */
export type Flag = number;

export interface UsersTable {
  id: string;
  username: string;
  normalized_username: string;
  password_hash: string | null;
  security_stamp: string;
  email_confirmed: Flag;
  phone_number: string;
  lockout_enabled: Flag;
  /** ISO UTC; in the future = locked (by lockout or, at LOCKED_FOREVER, by an administrator). */
  lockout_end: string | null;
  access_failed_count: Generated<number>;
  /** ISO UTC of the latest counted failure; a count older than the lockout window is forgotten. */
  access_failed_at: string | null;
  is_active: Flag;
  /** 1: the password must be replaced before the account may do anything else (bootstrap.ts). */
  must_change_password: Generated<Flag>;
  /** Wrong second-factor codes, counted and locked like wrong passwords (auth/mfa-lockout.ts). */
  mfa_failed_count: Generated<number>;
  mfa_failed_at: string | null;
  mfa_lockout_end: string | null;
  last_activity: string | null;
  created_at: string;
  /** Primary team (never null: every account has at least the default team). */
  team_id: string;
  app_name: string;
  first_name: string;
  last_name: string;
  home: string | null;
  color: string | null;
  short: string | null;
  currency: string;
  avatar: string | null;
  /** JSON object text. */
  properties: string;
}

export interface TeamsTable {
  id: string;
  short: string;
  name: string;
  type: string;
  created_at: string;
}

export interface TeamMembersTable {
  user_id: string;
  team_id: string;
  /** teamuser_lvl: free-form level, null when unset. */
  level: string | null;
}

export interface RolesTable {
  name: string;
  created_at: string;
}

export interface UserRolesTable {
  user_id: string;
  role_name: string;
}

export interface TokensTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 of the token value; the value itself is never stored. */
  token_hash: string;
  login_provider: string | null;
  created_at: string;
  created_by: string;
  used_at: string | null;
  /** ISO UTC from which the token no longer authenticates; null: it never expires. */
  expires_at: string | null;
  /** JSON array of the role names the token may use (intersected with the owner's current
   *  roles); null: all of the owner's roles. */
  roles: string | null;
}

/** Failed-password counting and lockout for usernames that have no account (see auth/lockout.ts). */
export interface LoginFailuresTable {
  /** SHA-256 hex of the normalised username. */
  username_digest: string;
  failed_count: number;
  /** ISO UTC of the latest counted failure. */
  failed_at: string;
  lockout_end: string | null;
}

/** The login rate limit's fixed windows, shared by every instance (see auth/rate-limit.ts). */
export interface LoginRateWindowsTable {
  /** SHA-256 hex of the limited key (it holds the client address and username). */
  key_digest: string;
  /** ISO UTC of the window's first hit. */
  window_start: string;
  hits: number;
}

export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/** The audit trail (src/audit/): who did what to whom, from where. */
export interface AuditLogTable {
  id: string;
  /** ISO UTC of the action. */
  at: string;
  /** One of AUDIT_ACTIONS (src/audit/audit-actions.ts). */
  action: string;
  /** Who acted: the account's username, or the username as typed for a failed login; null for the CLI. */
  actor: string | null;
  actor_id: string | null;
  /** What the action was done to: an account's username, a team's short name, a token's name. */
  subject: string | null;
  /** The account the action was done to, when it was one. */
  subject_id: string | null;
  /** The client's address (after Settings:TrustProxy), or `cli`. */
  client: string | null;
  /** The credential kind: password, api_token, jwt, cli. */
  via: string | null;
  request_id: string | null;
  /** JSON object text: the action's details (reason, role, team, app, …). */
  data: string;
}

/** An account's TOTP factor (auth/totp-factor.ts). */
export interface MfaTotpTable {
  user_id: string;
  /** Encrypted (auth/secret-box.ts). */
  secret: string;
  created_at: string;
  /** null: enrolled but not yet confirmed by a first code (not a factor yet). */
  confirmed_at: string | null;
  /** The time step of the last accepted code: a code of that step or earlier is refused. */
  last_step: number | null;
}

export interface MfaRecoveryCodesTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the normalised code. */
  code_digest: string;
  created_at: string;
  used_at: string | null;
}

/** A password login waiting for its second factor (auth/mfa-challenges.ts). */
export interface MfaChallengesTable {
  /** SHA-256 hex of the mfa_token. */
  token_digest: string;
  user_id: string;
  expires_at: string;
}

export interface Database {
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  tokens: TokensTable;
  instance_settings: InstanceSettingsTable;
  audit_log: AuditLogTable;
  login_failures: LoginFailuresTable;
  login_rate_windows: LoginRateWindowsTable;
  mfa_totp: MfaTotpTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type TokenRow = Selectable<TokensTable>;
export type AuditRow = Selectable<AuditLogTable>;
export type { ColumnType };

/** The database or a transaction on it: what repository functions take, so services can compose them. */
export type Db = Kysely<Database> | Transaction<Database>;
