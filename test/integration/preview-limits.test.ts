// The preview runs on worker threads. Over HTTP: a preview over
// Settings:PreviewTimeoutSeconds answers 422 preview_timeout and the next one is answered by a
// fresh worker; pings are answered while large previews run (the event loop is not theirs); a
// full preview queue answers 503 with Retry-After at once; the HTML is what preview() gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { ENVELOPE_SHAPE, expectShape } from '../support/shapes.js';
import { preview } from '../../src/system/markdown.js';

/** A markdown table of short rows just under the default 1 MiB body limit once in JSON: as large
 *  a preview as a client can ask for, and a long one (hundreds of ms at least, anywhere). */
function largeTable(): string {
  const rows: string[] = ['| n | x |', '|---|:-:|'];
  let size = 20;
  for (let i = 0; size < 900_000; i++) {
    const row = `| ${i} | *${i % 7}* |`;
    rows.push(row);
    size += row.length + 2; // the newline is two bytes in JSON
  }
  return `${rows.join('\n')}\n`;
}
const TABLE = largeTable();

let dbs: TestDatabase[] = [];
let instances: Instance[] = [];
async function instance(env: Record<string, string>): Promise<{ inst: Instance; auth: Record<string, string> }> {
  const db = await createTestDatabase('sqlite');
  dbs.push(db);
  const inst = await startInstance(db, env);
  instances.push(inst);
  return { inst, auth: { Authorization: `Bearer ${await inst.jwtFor(ADMIN.username, ADMIN.password)}` } };
}
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await Promise.all(dbs.map((d) => dropTestDatabase(d)));
  instances = [];
  dbs = [];
});

const postPreview = (inst: Instance, auth: Record<string, string>, painput: string) =>
  inst.request('/api/core/system/preview', { method: 'POST', headers: auth, json: { painput } });

describe('preview time limit', () => {
  let inst: Instance;
  let auth: Record<string, string>;
  beforeAll(async () => {
    // 0.1 s: far below the large table's hundreds of ms, and far above the few ms a one-line
    // preview takes even on a loaded CI machine (0.02 s was once exceeded there by a one-liner).
    ({ inst, auth } = await instance({ Settings__PreviewTimeoutSeconds: '0.1' }));
  });

  it(
    'answers 422 preview_timeout beyond Settings:PreviewTimeoutSeconds, and the next preview gets a fresh ' + 'worker',
    async () => {
      // The worker is up; the answer is the usual envelope (built around the worker's JSON bytes).
      const warm = await postPreview(inst, auth, '*warm* "q"');
      expect(warm.status).toBe(200);
      expect(warm.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expectShape(warm.body, ENVELOPE_SHAPE);
      expect(warm.body).toMatchObject({
        success: true,
        message: 'OK',
        data: { html: '<p><em>warm</em> &quot;q&quot;</p>\n' },
      });
      expect(Object.keys(warm.body.data)).toEqual(['html']);
      // The longest request id a client may set still fits the room the worker leaves for the head.
      const id = 'r'.repeat(64);
      const long = await inst.request('/api/core/system/preview', {
        method: 'POST',
        headers: { ...auth, 'x-request-id': id },
        json: { painput: '~~x~~' },
      });
      expect(long.body).toMatchObject({ success: true, requestID: id, data: { html: '<p><s>x</s></p>\n' } });
      const r = await postPreview(inst, auth, TABLE);
      expect(r.status).toBe(422);
      expect(r.body.success).toBe(false);
      expect(r.body.data.code).toBe('preview_timeout');
      expect(r.body.message).toBe(
        'The preview took longer than 0.1 s (Settings:PreviewTimeoutSeconds) and was stopped',
      );
      const next = await postPreview(inst, auth, '# after');
      expect(next.status).toBe(200);
      expect(next.body.data.html).toBe('<h1>after</h1>\n');
    },
  );
});

describe('previews on worker threads', () => {
  let inst: Instance;
  let auth: Record<string, string>;
  beforeAll(async () => {
    ({ inst, auth } = await instance({ Settings__PreviewWorkers: '1', Settings__PreviewQueueLimit: '0' }));
  });

  it('leaves the server answering pings while large previews run, and gives the HTML preview() gives', async () => {
    const expected = preview(TABLE);
    let running = true;
    const previews = (async () => {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await postPreview(inst, auth, TABLE));
      running = false;
      return answers;
    })();
    const started = performance.now();
    let pings = 0;
    while (running) {
      const ping = await inst.request('/api/core/system/ping');
      expect(ping.status).toBe(200);
      pings++;
    }
    const elapsed = performance.now() - started;
    for (const answer of await previews) {
      expect(answer.status).toBe(200);
      expect(answer.body.data.html === expected, 'the HTML differs from preview() in-process').toBe(true);
    }
    // On the event loop, three previews of this size left room for a few pings between them;
    // on worker threads pings go on as usual: on average far below 50 ms each.
    expect(pings).toBeGreaterThanOrEqual(20);
    expect(elapsed / pings).toBeLessThan(50);
  });

  it('answers 503 preview_busy with Retry-After at once when the queue is full', async () => {
    const first = postPreview(inst, auth, TABLE);
    await expect.poll(() => inst.services.previews.stats().busy, { interval: 5, timeout: 10_000 }).toBe(1);
    const started = performance.now();
    const refused = await postPreview(inst, auth, '*one more*');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(refused.status).toBe(503);
    expect(refused.body.data.code).toBe('preview_busy');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await first).status).toBe(200);
  });
});
