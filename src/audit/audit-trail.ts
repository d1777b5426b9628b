// The audit trail as the API and the CLI read it (paged, filtered, newest first), and its
// retention: rows older than Settings:AuditRetentionDays are deleted in the background.
import type { Kysely } from 'kysely';
import type { AuditRow, Database } from '../db/schema.js';
import { invalid } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import { listAudit, pruneAudit, type AuditFilter } from './audit-repository.js';

export interface AuditQuery {
  /** A username: the rows where that account acts or is acted upon. */
  user?: string;
  actions?: readonly string[];
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  /** The `next` of the previous page. */
  cursor?: string;
  limit: number;
}

export interface AuditEntryView {
  id: string;
  at: string;
  action: string;
  actor: string | null;
  subject: string | null;
  client: string | null;
  via: string | null;
  request_id: string | null;
  data: Record<string, unknown>;
}

export interface AuditPage {
  entries: AuditEntryView[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: string | null;
}

/** How often retention runs, and how many rows one delete statement takes (short transactions). */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const PRUNE_FIRST_AFTER_MS = 30 * 1000;
const PRUNE_BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface AuditTrailOptions {
  db: Kysely<Database>;
  retentionDays: number;
  /** The account id of a username, or null when there is none (identity lives above this folder). */
  findUserId: (username: string) => Promise<string | null>;
  onError: (err: unknown) => void;
}

const encodeCursor = (row: AuditRow): string => Buffer.from(`${row.at}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || extra !== undefined || Number.isNaN(Date.parse(at)))
    throw invalid('invalid_cursor', 'cursor is not one this endpoint gave', [
      { field: 'cursor', rule: 'cursor', message: 'pass the `next` value of the previous page' },
    ]);
  return { at, id };
}

function instant(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw invalid('invalid_time', `${field} is not an ISO 8601 time`, [
      { field, rule: 'iso8601', message: `${field} must be an ISO 8601 time such as 2026-11-26T10:00:00Z` },
    ]);
  return isoMicros(ms * 1000);
}

function view(row: AuditRow): AuditEntryView {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    data = { unreadable: row.data };
  }
  return {
    id: row.id,
    at: row.at,
    action: row.action,
    actor: row.actor,
    subject: row.subject,
    client: row.client,
    via: row.via,
    request_id: row.request_id,
    data,
  };
}

/** One page of the trail, newest first (the API's and the CLI's reading). */
export async function readAuditPage(
  db: Kysely<Database>,
  findUserId: AuditTrailOptions['findUserId'],
  query: AuditQuery,
): Promise<AuditPage> {
  const filter: AuditFilter = {
    actions: query.actions,
    from: instant('from', query.from),
    to: instant('to', query.to),
    before: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    // One more than asked tells whether there is a next page.
    limit: query.limit + 1,
  };
  if (query.user !== undefined) {
    const id = await findUserId(query.user);
    filter.user = id === null ? { typed: query.user } : { id };
  }
  const rows = await listAudit(db, filter);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return { entries: page.map(view), next: rows.length > query.limit && last ? encodeCursor(last) : null };
}

export class AuditTrail {
  private timer: NodeJS.Timeout | null = null;
  private pruning: Promise<unknown> | null = null;

  constructor(private readonly opts: AuditTrailOptions) {}

  async list(query: AuditQuery): Promise<AuditPage> {
    return readAuditPage(this.opts.db, this.opts.findUserId, query);
  }

  /** Deletes the rows past retention; returns how many. */
  async prune(nowMs: number = Date.now()): Promise<number> {
    const before = isoMicros((nowMs - this.opts.retentionDays * DAY_MS) * 1000);
    let total = 0;
    for (;;) {
      const n = await pruneAudit(this.opts.db, before, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) return total;
    }
  }

  /** Prunes soon after start and then every hour, in the background. */
  start(): void {
    if (this.timer) return;
    const run = () => {
      this.pruning ??= this.prune()
        .catch(this.opts.onError)
        .finally(() => (this.pruning = null));
    };
    this.timer = setTimeout(() => {
      run();
      this.timer = setInterval(run, PRUNE_INTERVAL_MS);
      this.timer.unref();
    }, PRUNE_FIRST_AFTER_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pruning;
  }
}
