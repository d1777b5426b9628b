// `platform-core audit`: the audit trail on the terminal, newest first, with the API's filters.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { readAuditPage, type AuditEntryView, type AuditPage } from '../audit/audit-trail.js';
import { findUserId } from '../identity/users-repository.js';
import { AppError } from '../lib/errors.js';
import { escapeControls } from '../lib/visible-text.js';
import { UsageError, many, one, type ParsedArgs } from './args.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100_000;

function line(e: AuditEntryView): string {
  const who = e.actor ?? 'cli';
  const whom = e.subject && e.subject !== e.actor ? ` -> ${e.subject}` : '';
  const from = e.client ? ` [${e.client}${e.via ? ` ${e.via}` : ''}]` : '';
  const data = Object.keys(e.data).length > 0 ? ` ${JSON.stringify(e.data)}` : '';
  return `${e.at}  ${e.action}  ${who}${whom}${from}${data}`;
}

export async function auditCommand(db: Kysely<Database>, args: ParsedArgs, out: (s: string) => void): Promise<void> {
  const limitText = one(args, 'limit') ?? String(DEFAULT_LIMIT);
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const user = one(args, 'user');
  const from = one(args, 'from');
  const to = one(args, 'to');
  const actions = many(args, 'action').flatMap((a) => a.split(','));
  let page: AuditPage;
  try {
    page = await readAuditPage(db, (username) => findUserId(db, username), {
      ...(user !== undefined ? { user } : {}),
      ...(actions.length > 0 ? { actions } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      limit,
    });
  } catch (err) {
    // A bad --from/--to is the caller's to fix: said as usage, not as a failure.
    if (err instanceof AppError) throw new UsageError(err.message);
    throw err;
  }
  const json = args.flags.has('json');
  // One entry, one line: the stored text in it (a username typed at a failed login) may hold a
  // newline or a terminal's control sequences. JSON.stringify leaves DEL, C1 and bidi controls.
  for (const e of page.entries) out(escapeControls(json ? JSON.stringify(e) : line(e)));
  if (!json && page.next) out(`(more: raise --limit or narrow --from/--to)`);
}
