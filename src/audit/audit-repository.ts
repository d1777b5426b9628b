// The audit_log table: one row per security-relevant action. Writers pass the transaction of
// the action, so the row commits with it or not at all.
import type { AuditRow, Db } from '../db/schema.js';
import { isoMicros } from '../lib/time.js';
import { newId } from '../lib/random.js';
import type { AuditAction, AuditActor } from './audit-actions.js';

export interface AuditEntry {
  action: AuditAction;
  by: AuditActor;
  /** Overrides by.username: a failed login's actor is the username as typed. */
  actor?: string | null;
  subject?: string | null;
  /** The account the action was done to, when it was one. */
  subjectId?: string | null;
  data?: Record<string, unknown>;
}

/** Longest text kept in a column: a typed username can be anything up to the body limit. */
const MAX_TEXT = 256;
/** PostgreSQL text cannot hold NUL, and a typed username may contain one. */
const NUL = /\u0000/g;
const clip = (s: string | null | undefined, max = MAX_TEXT): string | null =>
  s === null || s === undefined ? null : (s.length > max ? s.slice(0, max) : s).replace(NUL, '\uFFFD');

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  const { by } = entry;
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      at: isoMicros(),
      action: entry.action,
      actor: clip(entry.actor === undefined ? by.username : entry.actor),
      actor_id: by.userId,
      subject: clip(entry.subject),
      subject_id: entry.subjectId ?? null,
      client: clip(by.client, 64),
      via: clip(by.via, 32),
      request_id: clip(by.requestId, 64),
      data: JSON.stringify(entry.data ?? {}),
    })
    .execute();
}

export interface AuditFilter {
  /** Rows about one user: by the account's id when it exists (acting or acted upon), else by the
   *  username as typed (the failed logins of a name that has no account). */
  user?: { id: string } | { typed: string };
  actions?: readonly string[];
  /** ISO UTC bounds: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  /** Keyset cursor: rows strictly older than this (at, id). */
  before?: { at: string; id: string };
  limit: number;
}

/** A page of the trail, newest first. */
export async function listAudit(db: Db, f: AuditFilter): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll();
  if (f.user !== undefined) {
    const user = f.user;
    q =
      'id' in user
        ? q.where((eb) => eb.or([eb('actor_id', '=', user.id), eb('subject_id', '=', user.id)]))
        : q.where('actor', '=', user.typed).where('actor_id', 'is', null);
  }
  if (f.actions && f.actions.length > 0) q = q.where('action', 'in', f.actions);
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  if (f.before) {
    const { at, id } = f.before;
    q = q.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
  }
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
}

/** Deletes rows older than `before` (ISO UTC), at most `batch` of them; returns how many. */
export async function pruneAudit(db: Db, before: string, batch: number): Promise<number> {
  const res = await db
    .deleteFrom('audit_log')
    .where('id', 'in', (eb) =>
      eb.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('at').limit(batch),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
