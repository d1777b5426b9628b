// Administration from the shell. These talk to the same database as the server, also while it
// runs; a running server sees role changes within a second (auth/auth-changes.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createAccount } from '../accounts/account-service.js';
import type { PasswordPolicy } from '../auth/password-policy.js';
import { resetSecondFactors } from '../auth/second-factor-reset.js';
import { findUserByUsername } from '../identity/users-repository.js';
import { grantRole, revokeRole, ROLE_NAME_PATTERN, SYSTEM_ROLES, ensureRole } from '../accounts/roles-repository.js';
import { ensureDefaultTeam, findTeamByShort, insertTeam } from '../teams/teams-repository.js';
import { MAX_TOKEN_DAYS, TokenService, TOKEN_NAME_PATTERN, type TokenLimits } from '../tokens/token-service.js';
import { announceAuthChange } from '../auth/auth-changes.js';
import { assertGrantable } from '../accounts/valid-roles.js';
import { UsageError, many, one, type ParsedArgs } from './args.js';
import { recordAudit } from '../audit/audit-repository.js';
import { CLI_ACTOR } from '../audit/audit-actions.js';

/** Recorded as the creator of tokens made here. */
export const CLI_CREATED_BY = 'cli';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The roles the installed apps' SRS definitions name (valid-roles.ts), read from APPS_DIR. Loaded
 *  only when a role is granted: the definitions' reader brings the report library with it. */
const aclRolesOf = (appsDir: string) => async () => {
  const [{ rolesNamedByApps }, { DefinitionStore }] = await Promise.all([
    import('../srs/catalog.js'),
    import('../srs/definition/store.js'),
  ]);
  return rolesNamedByApps(appsDir, new DefinitionStore());
};

export async function userAdd(
  db: Kysely<Database>,
  args: ParsedArgs,
  out: (s: string) => void,
  appsDir: string,
  passwordPolicy: PasswordPolicy,
): Promise<void> {
  const username = args.positional[2];
  if (!username)
    throw new UsageError('usage: platform-core user add <username> --password-stdin [--role R]… [--team T]…');
  if (!args.flags.has('password-stdin'))
    throw new UsageError('give the password on standard input with --password-stdin');
  await assertGrantable(many(args, 'role'), appsDir, aclRolesOf(appsDir));
  const password = await readStdin();
  await ensureDefaultTeam(db);
  const created = await createAccount(
    db,
    { username, password, roles: many(args, 'role'), teams: many(args, 'team') },
    CLI_ACTOR,
    passwordPolicy,
  );
  out(`created user ${created.username} (${created.id})`);
}

export async function roleChange(
  db: Kysely<Database>,
  args: ParsedArgs,
  out: (s: string) => void,
  appsDir: string,
): Promise<void> {
  const [, action, username, role] = args.positional;
  if ((action !== 'grant' && action !== 'revoke') || !username || !role)
    throw new UsageError('usage: platform-core role grant|revoke <username> <role>');
  if (!new RegExp(ROLE_NAME_PATTERN).test(role)) throw new UsageError(`invalid role name: ${role}`);
  const user = await findUserByUsername(db, username);
  if (!user) throw new UsageError(`no such user: ${username}`);
  // Revoking stays possible for any role the user has (the app may have been removed).
  if (action === 'grant') await assertGrantable([role], appsDir, aclRolesOf(appsDir));
  // A running server learns of the change when it commits: PostgreSQL by the announcement sent
  // in this transaction, SQLite by polling the file's change counter.
  const changed = await db.transaction().execute(async (trx) => {
    let done = true;
    if (action === 'grant') await grantRole(trx, user.id, role);
    else done = await revokeRole(trx, user.id, role);
    if (done) {
      await recordAudit(trx, {
        action: action === 'grant' ? 'role_grant' : 'role_revoke',
        by: CLI_ACTOR,
        subject: user.username,
        subjectId: user.id,
        data: { role },
      });
      await announceAuthChange(trx, { users: [user.id] });
    }
    return done;
  });
  if (action === 'grant') out(`granted ${role} to ${user.username}`);
  else out(changed ? `revoked ${role} from ${user.username}` : `${user.username} did not have ${role}`);
}

export async function teamAdd(db: Kysely<Database>, args: ParsedArgs, out: (s: string) => void): Promise<void> {
  const [, , short, ...nameParts] = args.positional;
  const name = nameParts.join(' ');
  if (!short || !name) throw new UsageError('usage: platform-core team add <short> <name> [--type internal|external]');
  const type = one(args, 'type') ?? 'internal';
  if (type !== 'internal' && type !== 'external') throw new UsageError('--type must be internal or external');
  if (!/^[A-Za-z0-9_.-]{1,32}$/.test(short)) throw new UsageError('team short: 1–32 of A-Z a-z 0-9 _ . -');
  if (await findTeamByShort(db, short)) throw new UsageError(`team ${short} already exists`);
  const team = await db.transaction().execute(async (trx) => {
    const created = await insertTeam(trx, short, name, type);
    await recordAudit(trx, { action: 'team_create', by: CLI_ACTOR, subject: created.short, data: { name, type } });
    return created;
  });
  out(`created team ${team.short} (${team.id})`);
}

export async function tokenCreate(db: Kysely<Database>, args: ParsedArgs, out: (s: string) => void): Promise<void> {
  const name = args.positional[2];
  const username = one(args, 'user');
  if (!name || !username)
    throw new UsageError(
      'usage: platform-core token create <name> --user <username> [--expires-in-days N] [--role R]…',
    );
  if (!new RegExp(TOKEN_NAME_PATTERN).test(name)) throw new UsageError('token name: 1–64 of A-Z a-z 0-9 . _ -');
  const limits: TokenLimits = {};
  const days = one(args, 'expires-in-days');
  if (days !== undefined) {
    if (!/^[0-9]{1,4}$/.test(days) || Number(days) < 1 || Number(days) > MAX_TOKEN_DAYS)
      throw new UsageError(`--expires-in-days: a whole number from 1 to ${MAX_TOKEN_DAYS}`);
    limits.expiresInDays = Number(days);
  }
  if (args.options.has('role')) limits.roles = many(args, 'role');
  const record = await new TokenService(db).create(username, name, CLI_CREATED_BY, CLI_ACTOR, limits);
  // The only time the value is ever shown.
  out(record.value ?? '');
}

/** `token prune`: deletes the expired tokens (a running server forgets them at once). */
export async function tokenPrune(db: Kysely<Database>, args: ParsedArgs, out: (s: string) => void): Promise<void> {
  if (args.positional.length > 2) throw new UsageError('usage: platform-core token prune');
  const n = await new TokenService(db).pruneExpired(CLI_ACTOR);
  out(`deleted ${n} expired ${n === 1 ? 'token' : 'tokens'}`);
}

export async function ensureSystemRoles(db: Kysely<Database>): Promise<void> {
  for (const r of SYSTEM_ROLES) await ensureRole(db, r);
}

/** `mfa reset <username>`: the way back in for an account (an administrator's) that lost every second factor. */
export async function mfaReset(db: Kysely<Database>, args: ParsedArgs, out: (s: string) => void): Promise<void> {
  const username = args.positional[2];
  if (!username || args.positional.length > 3) throw new UsageError('usage: platform-core mfa reset <username>');
  const account = await resetSecondFactors(db, username, CLI_ACTOR);
  out(`reset the second factors of ${account.username}; their sessions have ended`);
}
