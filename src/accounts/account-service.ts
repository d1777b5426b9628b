// Creating accounts: shared by the bootstrap, the CLI and (later) the administration API.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { invalid, conflict, notFound } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import { newId, newSecurityStamp } from '../lib/random.js';
import { hashPassword } from '../auth/passwords.js';
import { assertPasswordRules, DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '../auth/password-policy.js';
import { findUserByUsername, insertUser } from '../identity/users-repository.js';
import { addTeamMember, ensureDefaultTeam, findTeamByShort } from '../teams/teams-repository.js';
import { grantRole } from './roles-repository.js';
import { isValidUsername, normalizeUsername } from '../identity/usernames.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';

export interface NewAccount {
  username: string;
  password: string;
  roles?: string[];
  /** Team shorts; the first is the primary team. None → the default team. */
  teams?: string[];
  firstName?: string;
  lastName?: string;
  /** The password is for one sign-in: the account must replace it before anything else. */
  mustChangePassword?: boolean;
}

export async function createAccount(
  db: Kysely<Database>,
  input: NewAccount,
  by: AuditActor,
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): Promise<{ id: string; username: string }> {
  if (!isValidUsername(input.username)) {
    throw invalid('invalid_input', 'username must be 1–256 of A-Z a-z 0-9 . _ @ + - and not "api"', [
      { field: 'username', rule: 'pattern', message: 'invalid username' },
    ]);
  }
  assertPasswordRules(input.password, input.username, policy);
  // Hash before the transaction: it is slow and must not hold a database lock.
  const passwordHash = await hashPassword(input.password);
  const id = newId();
  await db.transaction().execute(async (trx) => {
    if (await findUserByUsername(trx, input.username))
      throw conflict('user_exists', `User ${input.username} already exists`);
    const teams = [];
    for (const short of input.teams ?? []) {
      const team = await findTeamByShort(trx, short);
      if (!team) throw notFound('team_not_found', `Team ${short} not found`);
      teams.push(team);
    }
    if (teams.length === 0) teams.push(await ensureDefaultTeam(trx));
    await insertUser(trx, {
      id,
      username: input.username,
      normalized_username: normalizeUsername(input.username),
      password_hash: passwordHash,
      security_stamp: newSecurityStamp(),
      email_confirmed: 0,
      phone_number: '',
      lockout_enabled: 1,
      lockout_end: null,
      is_active: 1,
      must_change_password: input.mustChangePassword ? 1 : 0,
      last_activity: null,
      created_at: isoMicros(),
      team_id: teams[0]!.id,
      app_name: '',
      first_name: input.firstName ?? '',
      last_name: input.lastName ?? '',
      home: null,
      color: null,
      short: null,
      currency: 'EUR',
      avatar: null,
      properties: '{}',
    });
    for (const t of teams) await addTeamMember(trx, id, t.id);
    const roles = [...new Set(input.roles ?? [])];
    for (const role of roles) await grantRole(trx, id, role);
    await recordAudit(trx, {
      action: 'account_create',
      by,
      subject: input.username,
      subjectId: id,
      data: { roles, teams: teams.map((t) => t.short) },
    });
  });
  return { id, username: input.username };
}
