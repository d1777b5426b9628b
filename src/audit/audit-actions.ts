// What the audit trail records: the actions, and who did them from where.

/** Every action the trail knows, in the order docs/identity.md lists them. */
export const AUDIT_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'account_lockout',
  'account_create',
  'account_lock',
  'account_unlock',
  'account_cancel',
  'cancel_hook_failed',
  'account_reactivate',
  'account_copy',
  'context_change',
  'profile_update',
  'password_set',
  'password_change',
  'mfa_totp_enrol',
  'mfa_totp_confirm',
  'mfa_totp_remove',
  'mfa_recovery_codes_create',
  'mfa_success',
  'mfa_recovery_code_used',
  'mfa_failed',
  'mfa_lockout',
  'mfa_reset',
  'role_grant',
  'role_revoke',
  'team_create',
  'team_member_add',
  'team_member_remove',
  'token_create',
  'token_delete',
  'token_first_use',
  'srs_render',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who does something, and from where: built by the API layer from the request (its principal,
 * client address and id) or by the CLI, and handed to the domain services with the action.
 */
export interface AuditActor {
  /** The acting account's username; null for the CLI, which acts as the operator of the machine. */
  username: string | null;
  userId: string | null;
  /** The client's address, or `cli`. */
  client: string | null;
  /** The credential kind: password, api_token, jwt, cli. */
  via: string | null;
  requestId: string | null;
}

/** The command line: the machine's operator, no account. */
export const CLI_ACTOR: AuditActor = { username: null, userId: null, client: 'cli', via: 'cli', requestId: null };

/** The service itself at start (the first administrator). */
export const STARTUP_ACTOR: AuditActor = {
  username: null,
  userId: null,
  client: null,
  via: 'startup',
  requestId: null,
};
