// The preview pool with real worker threads (the TypeScript sources through tsx): the HTML is
// what preview() gives in-process, and a preview over its time or heap limit, aborted, or whose
// worker crashes fails with its own error while the pool goes on with a fresh worker; a full
// queue refuses at once.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { preview } from '../../src/system/markdown.js';
import {
  PoolBusyError,
  JobFailedError,
  JobMemoryError,
  PreviewPool,
  JobTimeoutError,
  type PreviewPoolOptions,
} from '../../src/system/preview-pool.js';
import { JSON_HEADROOM, JSON_TAILROOM, type PreviewJson } from '../../src/system/preview-protocol.js';
import { track, waitFor } from './render-pool-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'preview-pool-'));
const REAL_WORKER = fileURLToPath(new URL('../../src/system/preview-worker.ts', import.meta.url));

// Previews that misbehave by construction, not by size (the preview keeps getting faster): the
// real worker, plus a listener that runs first and, for a source naming it, keeps the thread
// busy for ever (only terminating it stops that), exits, or allocates until the heap is full.
const MISBEHAVING_WORKER = join(dir, 'misbehaving-worker.mts');
writeFileSync(
  MISBEHAVING_WORKER,
  `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => {
  if (m?.type !== 'preview') return;
  if (m.source === 'HANG') for (;;) {}
  if (m.source === 'CRASH') process.exit(3);
  if (m.source === 'HOG') { const kept = []; for (;;) kept.push(new Array(100_000).fill(kept.length)); }
  if (m.source === 'SLOW') { const until = Date.now() + 400; while (Date.now() < until) {} }
});
await import(${JSON.stringify(pathToFileURL(REAL_WORKER).href)});
`,
);

const pools: PreviewPool[] = [];
function pool(opts: PreviewPoolOptions): PreviewPool {
  const p = new PreviewPool(opts);
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a settled preview gave, in a few words (a failed expectation must not print a document). */
const what = (v: unknown): string => (v instanceof Error ? `${v.name}: ${v.message}` : `a result (${typeof v})`);

/** A preview's JSON string, as text. */
const jsonText = ({ bytes, start, end }: PreviewJson): string => bytes.subarray(start, end).toString('utf8');
/** The HTML of a preview (the pool answers it as a JSON string in UTF-8 bytes). */
const html = async (p: PreviewPool, ...args: Parameters<PreviewPool['previewJson']>): Promise<string> =>
  JSON.parse(jsonText(await p.previewJson(...args))) as string;

describe('preview pool', () => {
  it(
    'gives exactly what preview() gives in-process, as ' + 'JSON: markdown, raw HTML, large tables, patype html',
    async () => {
      const p = pool({ size: 2 });
      const examples = (
        createRequire(import.meta.url)('commonmark-spec') as { tests: Array<{ markdown: string }> }
      ).tests.map((t) => t.markdown);
      const documents: Array<[string, 'markdown' | 'html']> = [
        [readFileSync(new URL('../../README.md', import.meta.url), 'utf8'), 'markdown'],
        [examples.join('\n\n'), 'markdown'],
        [
          `| a | "b" |\n|:-|-:|\n${'| x <kbd>y</kbd> | [r] `c` |\n'.repeat(20_000)}\n[r]: https://r.example\n`,
          'markdown',
        ],
        ['<b onclick="x()">bold</b> *not md* <script>alert(1)</script>', 'html'],
      ];
      const answers = await Promise.all(documents.map(([source, format]) => p.previewJson(source, format)));
      documents.forEach(([source, format], i) => {
        expect(jsonText(answers[i]!) === JSON.stringify(preview(source, format)), `document ${i}`).toBe(true);
      });
      // With the promised room around the JSON, for the answer's envelope.
      for (const { bytes, start, end } of answers) {
        expect(start).toBeGreaterThanOrEqual(JSON_HEADROOM);
        expect(bytes.length - end).toBeGreaterThanOrEqual(JSON_TAILROOM);
      }
    },
  );

  it('stops a preview over its time limit, terminates its worker and answers the next preview', async () => {
    const timeoutMs = 300;
    const p = pool({ size: 1, timeoutMs, workerScript: MISBEHAVING_WORKER });
    // the worker is up: the clock measures the preview alone
    expect(await html(p, '*up*', 'markdown')).toBe('<p><em>up</em></p>\n');
    const started = Date.now();
    const err = await html(p, 'HANG', 'markdown').catch((e: unknown) => e);
    expect(err instanceof JobTimeoutError, what(err)).toBe(true);
    expect((err as JobTimeoutError).timeoutMs).toBe(timeoutMs);
    expect(Date.now() - started).toBeGreaterThanOrEqual(timeoutMs - 20);
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0 });
    expect(await html(p, 'next', 'markdown')).toBe('<p>next</p>\n');
  });

  it('answers JobMemoryError when a preview exceeds the worker heap limit, and recovers', async () => {
    const p = pool({ size: 1, maxMemoryMb: 32, workerScript: MISBEHAVING_WORKER });
    const err = await html(p, 'HOG', 'markdown').catch((e: unknown) => e);
    expect(err instanceof JobMemoryError, what(err)).toBe(true);
    expect((err as JobMemoryError).maxMemoryMb).toBe(32);
    expect(await html(p, 'after', 'markdown')).toBe('<p>after</p>\n');
  });

  it('refuses at once with PoolBusyError and a Retry-After when the queue is full', async () => {
    const p = pool({ size: 1, queueLimit: 1, workerScript: MISBEHAVING_WORKER });
    const running = track(html(p, 'SLOW', 'markdown'));
    const queued = track(html(p, 'SLOW', 'markdown'));
    const err = await html(p, 'one too many', 'markdown').catch((e: unknown) => e);
    expect(err instanceof PoolBusyError, what(err)).toBe(true);
    expect((err as PoolBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((err as PoolBusyError).retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(running.settled || queued.settled).toBe(false);
    await expect(Promise.all([running.promise, queued.promise])).resolves.toEqual(['<p>SLOW</p>\n', '<p>SLOW</p>\n']);
    expect(await html(p, 'room again', 'markdown')).toBe('<p>room again</p>\n');
  });

  it('takes an aborted waiting preview out of the queue, and stops an aborted running one', async () => {
    const p = pool({ size: 1, queueLimit: 2, workerScript: MISBEHAVING_WORKER });
    const running = new AbortController();
    const hanging = html(p, 'HANG', 'markdown', running.signal).catch((e: unknown) => e);
    await waitFor(() => p.stats().busy === 1);
    const waiting = new AbortController();
    const queued = html(p, 'never', 'markdown', waiting.signal).catch((e: unknown) => e);
    expect(p.stats().queued).toBe(1);
    waiting.abort(new Error('gave up waiting'));
    expect(what(await queued)).toBe('Error: gave up waiting');
    expect(p.stats()).toMatchObject({ busy: 1, queued: 0 });
    running.abort(new Error('went away'));
    expect(what(await hanging)).toBe('Error: went away');
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0 });
    expect(await html(p, 'fresh', 'markdown')).toBe('<p>fresh</p>\n');
  });

  it('replaces a worker that crashes; a worker that cannot start fails what waits, clearly', async () => {
    const p = pool({ size: 1, workerScript: MISBEHAVING_WORKER });
    const err = await html(p, 'CRASH', 'markdown').catch((e: unknown) => e);
    expect(err instanceof JobFailedError, what(err)).toBe(true);
    expect((err as Error).message).toMatch(/preview worker stopped unexpectedly.*exit code 3/);
    expect(await html(p, 'alive', 'markdown')).toBe('<p>alive</p>\n');

    const broken = join(dir, 'broken-worker.mts');
    writeFileSync(broken, `throw new Error('broken on purpose');\n`);
    const err2 = await html(pool({ size: 1, workerScript: broken }), 'x', 'markdown').catch((e: unknown) => e);
    expect(what(err2)).toBe('JobFailedError: preview workers fail to start: broken on purpose');
    const err3 = await html(pool({ size: 1, workerScript: join(dir, 'no-such-worker.js') }), 'x', 'markdown').catch(
      (e: unknown) => e,
    );
    expect(what(err3)).toMatch(/^JobFailedError: cannot start a preview worker: .*no-such-worker\.js does not exist/);
  });

  it('close() fails running and waiting previews and every later one', async () => {
    const p = pool({ size: 1, workerScript: MISBEHAVING_WORKER });
    const running = html(p, 'HANG', 'markdown').catch((e: unknown) => e);
    const queued = html(p, 'x', 'markdown').catch((e: unknown) => e);
    await waitFor(() => p.stats().busy === 1);
    await p.close();
    for (const err of [await running, await queued, await html(p, 'x', 'markdown').catch((e: unknown) => e)]) {
      expect(what(err)).toBe('PoolClosedError: the preview pool is closed');
    }
  });

  it.runIf(process.platform === 'linux')(
    'runs its workers below the event loop’s priority (Linux: per thread)',
    async () => {
      // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (after the command in parentheses).
      const niceValues = () =>
        readdirSync('/proc/self/task').map((tid) =>
          Number(
            readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
              .replace(/^.*\) /s, '')
              .split(' ')[16],
          ),
        );
      const before = niceValues();
      const p = pool({ size: 1 });
      expect(await html(p, 'x', 'markdown')).toBe('<p>x</p>\n');
      const after = niceValues();
      expect(after.filter((n) => n === 10).length - before.filter((n) => n === 10).length).toBe(1);
      expect(Math.min(...after)).toBe(Math.min(...before)); // the event loop's thread keeps its priority
    },
  );

  it('validates its options', () => {
    expect(() => new PreviewPool({ size: 0 })).toThrow(RangeError);
    expect(() => new PreviewPool({ timeoutMs: 1.5 })).toThrow(RangeError);
    expect(() => new PreviewPool({ maxMemoryMb: 8 })).toThrow(RangeError);
    expect(new PreviewPool({ size: 3 })).toMatchObject({
      size: 3,
      queueLimit: 12,
      timeoutMs: 10_000,
      maxMemoryMb: 512,
    });
  });
});
