// The render pool's limits and failures, with real worker threads: a render over its time
// limit, over its heap limit, aborted (queued or running), a worker that crashes or cannot
// start. Each time the job fails with its own error and the pool renders the next job.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { JobFailedError, JobMemoryError, JobTimeoutError } from '../../src/srs/render-pool/index.js';
import { listData, listTemplate, track, waitFor, renderPoolsClosedAfterEach } from './render-pool-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'render-pool-limits-'));
const LIST = join(dir, 'list.frx');
writeFileSync(LIST, listTemplate('Limits'));
const CRASH = join(dir, 'crash.frx');
writeFileSync(CRASH, listTemplate('Never rendered'));
const REAL_WORKER = fileURLToPath(new URL('../../src/srs/render-pool/render-worker.ts', import.meta.url));

// Jobs that take long by construction, not by size (the engine keeps getting faster, and a
// "large" report that finishes before its limit would make these tests pass or fail by speed):
// the real worker, plus a listener that runs first and keeps the thread busy, forever for
// hang.frx (only terminating the thread stops it), 400 ms for slow.frx (then it renders).
const HANG = join(dir, 'hang.frx');
const SLOW = join(dir, 'slow.frx');
writeFileSync(SLOW, listTemplate('Slow'));
const BUSY_WORKER = join(dir, 'busy-worker.mts');
writeFileSync(
  BUSY_WORKER,
  `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => {
  if (m?.type !== 'render') return;
  if (m.job.templatePath.endsWith('hang.frx')) for (;;) {}
  if (m.job.templatePath.endsWith('slow.frx')) { const until = Date.now() + 400; while (Date.now() < until) {} }
});
await import(${JSON.stringify(pathToFileURL(REAL_WORKER).href)});
`,
);

/** What a settled render gave, in a few words (a failed expectation must not print a whole report). */
const what = (v: unknown): string => (v instanceof Error ? `${v.name}: ${v.message}` : `a result (${typeof v})`);

const pool = renderPoolsClosedAfterEach();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = () => ({ templatePath: LIST, format: 'html' as const, data: listData(3) });

describe('render pool limits', () => {
  it('stops a render over its time limit, terminates its worker and renders the next job', async () => {
    const timeoutMs = 1500;
    const p = pool({ size: 1, timeoutMs, workerScript: BUSY_WORKER });
    await p.render(small()); // the worker is up: the clock measures the render alone
    const started = Date.now();
    const err = await p.render({ templatePath: HANG, format: 'html', data: listData(1) }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(err instanceof JobTimeoutError, what(err)).toBe(true);
    expect((err as JobTimeoutError).timeoutMs).toBe(timeoutMs);
    expect((err as Error).message).toBe('the report took longer than 1.5 s to render and was stopped');
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(elapsed).toBeLessThan(timeoutMs + 2000);
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0 });
    await expect(p.render(small())).resolves.toMatchObject({ pages: 1 });
  });

  it('answers JobMemoryError when a render exceeds the worker heap limit, and recovers', async () => {
    const p = pool({ size: 1, maxMemoryMb: 32, timeoutMs: 60_000 });
    // 40,000 rows need several times the 32 MB (the data alone is a few MB in the worker).
    const err = await p.render({ templatePath: LIST, format: 'html', data: listData(40_000) }).catch((e: unknown) => e);
    expect(err instanceof JobMemoryError, what(err)).toBe(true);
    expect((err as JobMemoryError).maxMemoryMb).toBe(32);
    await expect(p.render(small())).resolves.toMatchObject({ pages: 1 });
  });

  it('removes an aborted queued job from the queue; the running one finishes', async () => {
    const p = pool({ size: 1, queueLimit: 2, workerScript: BUSY_WORKER });
    const running = track(p.render({ templatePath: SLOW, format: 'html', data: listData(20) }));
    const controller = new AbortController();
    const queued = p.render(small(), controller.signal).catch((e: unknown) => e);
    expect(p.stats().queued).toBeGreaterThanOrEqual(1);
    const queuedBefore = p.stats().queued;
    controller.abort();
    const err = await queued;
    expect((err as Error).name).toBe('AbortError');
    expect(p.stats().queued).toBe(queuedBefore - 1);
    expect(running.settled).toBe(false);
    await expect(running.promise).resolves.toMatchObject({ contentType: 'text/html; charset=utf-8' });

    // An already aborted signal never queues.
    const done = new AbortController();
    done.abort(new Error('gone'));
    await expect(p.render(small(), done.signal)).rejects.toThrow('gone');
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0 });
  });

  it('stops a running job when its signal aborts, and renders the next job', async () => {
    const p = pool({ size: 1, workerScript: BUSY_WORKER });
    const controller = new AbortController();
    const running = p
      .render({ templatePath: HANG, format: 'html', data: listData(1) }, controller.signal)
      .catch((e: unknown) => e);
    await waitFor(() => p.stats().busy === 1);
    const reason = new Error('client went away');
    const started = Date.now();
    controller.abort(reason);
    const got = await running;
    expect(got === reason, what(got)).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0 });
    await expect(p.render(small())).resolves.toMatchObject({ pages: 1 });
  });

  it('replaces a worker that crashes: its job fails, the others carry on', async () => {
    // The real worker, plus a listener that kills the thread on one template.
    const script = join(dir, 'crashing-worker.mts');
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => { if (m?.type === 'render' && m.job.templatePath.endsWith('crash.frx')) ` +
        `process.exit(3); });
await import(${JSON.stringify(pathToFileURL(REAL_WORKER).href)});
`,
    );
    const p = pool({ size: 2, workerScript: script });
    const crashed = p
      .render({ templatePath: CRASH, format: 'html', data: listData(1) }, undefined)
      .catch((e: unknown) => e);
    const other = p.render({ templatePath: LIST, format: 'html', data: listData(500) });
    const err = await crashed;
    expect(err).toBeInstanceOf(JobFailedError);
    expect((err as Error).message).toMatch(/render worker stopped unexpectedly.*exit code 3/);
    await expect(other).resolves.toMatchObject({ contentType: 'text/html; charset=utf-8' });
    const after = await Promise.all([p.render(small()), p.render(small())]);
    expect(after.map((o) => o.pages)).toEqual([1, 1]);
  });

  it('fails queued jobs with a clear error when workers cannot start', async () => {
    const script = join(dir, 'broken-worker.mts');
    writeFileSync(script, `throw new Error('broken on purpose');\n`);
    const p = pool({ size: 1, workerScript: script });
    const err = await p.render(small()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect((err as Error).message).toBe('render workers fail to start: broken on purpose');

    const missing = pool({ size: 1, workerScript: join(dir, 'no-such-worker.js') });
    const err2 = await missing.render(small()).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(JobFailedError);
    expect((err2 as Error).message).toMatch(/no-such-worker\.js does not exist/);
  });
});
