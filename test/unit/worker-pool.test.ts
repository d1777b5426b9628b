// The generic worker pool (src/lib/worker-pool) with both kinds of workers, on small scripts:
// the same job runs on a thread and in a process; a job that reports progress keeps its time
// limit running afresh, one that does not is stopped at the limit and its worker replaced; a
// held pool keeps its jobs queued, so a full queue is seen by construction; startAll starts
// every worker and warms each up, unless a job is waiting or comes meanwhile.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  processLaunch,
  processWorkers,
  threadWorkers,
  WorkerPool,
  type StartWorker,
  type WorkerPoolHooks,
} from '../../src/lib/worker-pool/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pc-worker-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A job: wait `ms`, sending `progress` every `tickMs` (if given), then answer `done` with `value`. */
interface Job {
  value: string;
  ms: number;
  tickMs?: number;
  /** End the worker (thread or process) instead of answering. */
  crash?: boolean;
}
type Reply =
  | { type: 'ready' }
  | { type: 'progress'; id: number }
  | { type: 'done'; id: number; value: string }
  | { type: 'warmed'; id: number };

// A warm-up (when the pool sends one) waits its ms; a job that comes meanwhile cuts it short.
// A job's answer says whether the worker had finished its warm-up.
const BODY = `
let warmed = false;
let warming;
on((msg) => {
  if (msg?.type === 'warmup') {
    warming = setTimeout(() => { warmed = true; send({ type: 'warmed', id: msg.id }); }, msg.ms);
    return;
  }
  if (msg?.type !== 'job') return;
  clearTimeout(warming);
  const { id, job } = msg;
  if (job.crash) process.exit(3);
  const ticks = job.tickMs ? setInterval(() => send({ type: 'progress', id }), job.tickMs) : undefined;
  const value = job.value + ' from ' + KIND + (warmed ? ' (warm)' : '');
  setTimeout(() => { clearInterval(ticks); send({ type: 'done', id, value }); }, job.ms);
});
send({ type: 'ready' });
`;
const THREAD = join(dir, 'thread.mjs');
writeFileSync(
  THREAD,
  `import { parentPort } from 'node:worker_threads';
const KIND = 'thread';
const send = (m) => parentPort.postMessage(m);
const on = (f) => parentPort.on('message', f);
${BODY}`,
);
const PROCESS = join(dir, 'process.mjs');
writeFileSync(
  PROCESS,
  `const KIND = 'process';
const send = (m) => process.send(m);
const on = (f) => process.on('message', f);
process.on('disconnect', () => process.exit(0));
${BODY}`,
);

type Kind = 'thread' | 'process';
const kinds: Record<Kind, () => StartWorker<Reply>> = {
  thread: () => threadWorkers({ script: THREAD, noun: 'test', maxMemoryMb: 64 }),
  process: () => processWorkers({ launch: () => processLaunch(PROCESS, 'test process'), args: [] }),
};

class Busy extends Error {}
class TimedOut extends Error {}

const pools: WorkerPool<Job, string, Reply>[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(kind: Kind, limits: { size: number; queueLimit: number }, timeLimitMs = 10_000, warmupMs?: number) {
  const hooks: WorkerPoolHooks<Job, string, Reply> = {
    noun: 'test',
    initialAverageMs: 100,
    startWorker: kinds[kind](),
    request: (id, job) => ({ type: 'job', id, job }),
    timeLimitMs: () => timeLimitMs,
    answer: (reply) => (reply.type === 'done' ? { result: reply.value } : { progress: true }),
    busy: () => new Busy('busy'),
    timeout: (job) => new TimedOut(`${job.value} timed out`),
    lost: (_job, exit) => new Error(`lost: ${exit.message}`),
    startFailed: (message) => new Error(`fail to start: ${message}`),
    cannotStart: (err) => new Error(`cannot start: ${(err as Error).message}`),
    unsendable: (_job, err) => new Error(`unsendable: ${(err as Error).message}`),
    closed: () => new Error('closed'),
    ...(warmupMs !== undefined ? { warmup: (id: number) => ({ type: 'warmup', id, ms: warmupMs }) } : {}),
  };
  const p = new WorkerPool(limits, hooks);
  pools.push(p);
  return p;
}

describe.each<Kind>(['thread', 'process'])('the worker pool on a %s', (kind) => {
  it('runs jobs, reusing its worker', async () => {
    const p = pool(kind, { size: 1, queueLimit: 5 });
    const results = await Promise.all(['a', 'b', 'c'].map((value) => p.submit({ value, ms: 1 })));
    expect(results).toEqual([`a from ${kind}`, `b from ${kind}`, `c from ${kind}`]);
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0, started: 1 });
    expect(p.stats().pids).toHaveLength(kind === 'process' ? 1 : 0);
  });

  it('a held pool keeps its jobs queued: one more than it holds is refused at once', async () => {
    const p = pool(kind, { size: 1, queueLimit: 0 });
    const release = p.hold();
    const first = p.submit({ value: 'first', ms: 1 });
    expect(p.stats()).toMatchObject({ busy: 0, queued: 1 });
    await expect(p.submit({ value: 'second', ms: 1 })).rejects.toBeInstanceOf(Busy);
    release();
    expect(await first).toBe(`first from ${kind}`);
  });

  it('progress starts the time limit again; a job without progress is stopped at it, its worker replaced', async () => {
    // The ticks come far more often than the limit, so that a loaded machine does not starve one.
    const p = pool(kind, { size: 1, queueLimit: 5 }, 1000);
    expect(await p.submit({ value: 'ticking', ms: 2500, tickMs: 20 })).toBe(`ticking from ${kind}`);
    await expect(p.submit({ value: 'silent', ms: 60_000 })).rejects.toThrow('silent timed out');
    expect(await p.submit({ value: 'next', ms: 1 })).toBe(`next from ${kind}`);
    expect(p.stats().started).toBe(2);
  });

  it('counts the workers it loses by why (the metrics’ worker restarts); closing loses none', async () => {
    const p = pool(kind, { size: 1, queueLimit: 5 }, 300);
    expect(p.stats().lost).toEqual({ timeout: 0, memory: 0, crash: 0, aborted: 0 });
    await expect(p.submit({ value: 'silent', ms: 60_000 })).rejects.toThrow('silent timed out');
    await expect(p.submit({ value: 'dying', ms: 1, crash: true })).rejects.toThrow(/^lost: /);
    const abort = new AbortController();
    const aborted = p.submit({ value: 'left', ms: 60_000 }, abort.signal);
    await expect.poll(() => p.stats().busy).toBe(1);
    abort.abort(new Error('client went away'));
    await expect(aborted).rejects.toThrow('client went away');
    expect(await p.submit({ value: 'fine', ms: 1 })).toBe(`fine from ${kind}`);
    expect(p.stats().lost).toEqual({ timeout: 1, memory: 0, crash: 1, aborted: 1 });
    expect(p.stats().started).toBe(4);
    const running = expect(p.submit({ value: 'at close', ms: 60_000 })).rejects.toThrow('closed');
    await expect.poll(() => p.stats().busy).toBe(1);
    await p.close();
    await running;
    expect(p.stats().lost).toEqual({ timeout: 1, memory: 0, crash: 1, aborted: 1 });
  });
});

describe('startAll: every worker at once, each warmed up', () => {
  it('starts `size` workers before any job; each warms up before its first job', async () => {
    const p = pool('thread', { size: 2, queueLimit: 5 }, 10_000, 50);
    p.startAll();
    expect(p.stats().started).toBe(2);
    // The warm-ups (50 ms each, after the threads load) are over long before this.
    await new Promise((r) => setTimeout(r, 1500));
    const results = await Promise.all(['a', 'b'].map((value) => p.submit({ value, ms: 200 })));
    expect(results).toEqual(['a from thread (warm)', 'b from thread (warm)']);
    expect(p.stats().started).toBe(2);
  });

  it('a job waiting at start, or coming during a warm-up, does not wait for it', async () => {
    const p = pool('thread', { size: 1, queueLimit: 5 }, 10_000, 60_000);
    p.startAll();
    expect(await p.submit({ value: 'waiting', ms: 1 })).toBe('waiting from thread');
    const q = pool('thread', { size: 1, queueLimit: 5 }, 10_000, 60_000);
    q.startAll();
    // Ready, and in its minute-long warm-up, which the job must not wait for.
    await new Promise((r) => setTimeout(r, 1000));
    const started = performance.now();
    expect(await q.submit({ value: 'during', ms: 1 })).toBe('during from thread');
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('without a warm-up hook startAll only starts the workers', async () => {
    const p = pool('thread', { size: 2, queueLimit: 5 });
    p.startAll();
    expect(p.stats().started).toBe(2);
    expect(await p.submit({ value: 'x', ms: 1 })).toBe('x from thread');
    expect(p.stats().started).toBe(2);
  });
});
