// Records "last seen" times for accounts and tokens. Every authenticated request would
// otherwise write a row; instead each account and token is written at most once a minute per
// instance (docs/api.md, Tokens: `token_used_at` is coalesced), in the background. A token's first use is also an
// audit trail entry, written with the used_at that marks it (once, whichever instance is first).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isoMicros } from '../lib/time.js';
import { recordAudit } from '../audit/audit-repository.js';

const COALESCE_MS = 60_000;

export class ActivityRecorder {
  private readonly userWrites = new Map<string, number>();
  private readonly tokenWrites = new Map<string, number>();
  /** Tokens whose first use is recorded (by this instance or found recorded). */
  private readonly tokensUsedBefore = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** `now`: the caller's clock reading (ms), so a request reads the clock once. */
  userSeen(userId: string, now: number = Date.now()): void {
    if (this.due(this.userWrites, userId, now)) {
      this.track(this.db.updateTable('users').set({ last_activity: isoMicros() }).where('id', '=', userId).execute());
    }
  }

  tokenUsed(tokenId: string, now: number = Date.now()): void {
    if (!this.due(this.tokenWrites, tokenId, now)) return;
    if (this.tokensUsedBefore.has(tokenId)) {
      this.track(this.db.updateTable('tokens').set({ used_at: isoMicros() }).where('id', '=', tokenId).execute());
      return;
    }
    if (this.tokensUsedBefore.size > 100_000) this.tokensUsedBefore.clear();
    this.tokensUsedBefore.add(tokenId);
    this.track(this.markUsed(tokenId));
  }

  /** Sets used_at; when it was null, records the first use in the same transaction. */
  private async markUsed(tokenId: string): Promise<void> {
    const now = isoMicros();
    await this.db.transaction().execute(async (trx) => {
      const first = await trx
        .updateTable('tokens')
        .set({ used_at: now })
        .where('id', '=', tokenId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(first.numUpdatedRows) === 0) {
        await trx.updateTable('tokens').set({ used_at: now }).where('id', '=', tokenId).execute();
        return;
      }
      const token = await trx
        .selectFrom('tokens')
        .innerJoin('users', 'users.id', 'tokens.user_id')
        .select(['tokens.name as name', 'users.id as userId', 'users.username as username'])
        .where('tokens.id', '=', tokenId)
        .executeTakeFirst();
      if (!token) return;
      await recordAudit(trx, {
        action: 'token_first_use',
        by: { username: token.username, userId: token.userId, client: null, via: 'api_token', requestId: null },
        subject: token.username,
        subjectId: token.userId,
        data: { name: token.name },
      });
    });
  }

  /** Waits for writes in flight (graceful shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private due(map: Map<string, number>, key: string, now: number): boolean {
    const last = map.get(key);
    if (last !== undefined && now - last < COALESCE_MS) return false;
    if (map.size > 100_000) map.clear();
    map.set(key, now);
    return true;
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch(this.onError).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
