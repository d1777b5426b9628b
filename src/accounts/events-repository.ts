// The events table: what administrators did to accounts (cancel, reactivate), for the record.
import type { Db } from '../db/schema.js';
import { isoMicros } from '../lib/time.js';
import { newId } from '../lib/random.js';

export async function recordEvent(
  db: Db,
  event: { type: string; actor: string; subject: string; data: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: newId(),
      type: event.type,
      actor: event.actor,
      subject: event.subject,
      created_at: isoMicros(),
      data: JSON.stringify(event.data),
    })
    .execute();
}
