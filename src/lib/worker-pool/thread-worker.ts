// Workers as threads: started with a heap limit (V8's old generation), so a job that needs more
// ends its thread with ERR_WORKER_OUT_OF_MEMORY, which the pool reports as `outOfMemory`.
// Messages are structured-cloned; a reply's transfer list moves bytes instead of copying them.

import { Worker } from 'node:worker_threads';
import { threadLaunch, type ThreadLaunch } from './launch.js';
import type { PoolReply, PoolWorker, StartWorker, WorkerEvents } from './pool-worker.js';

let nextThreadNumber = 1;

class ThreadWorker implements PoolWorker {
  readonly worker: Worker;
  readonly pid = undefined;
  ready = false;
  stopped = false;
  private lastError: Error | undefined;

  constructor(launch: ThreadLaunch, maxMemoryMb: number, name: string, events: WorkerEvents<PoolReply>) {
    this.worker = new Worker(launch.filename, {
      ...(launch.workerData ? { workerData: launch.workerData } : {}),
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      name: `${name}-${nextThreadNumber++}`,
    });
    this.keepAlive(false);
    this.worker.on('message', (msg: PoolReply) => {
      if (msg?.type === 'ready') this.ready = true;
      events.onReply(this, msg);
    });
    this.worker.on('error', (err) => {
      this.lastError = err;
    });
    this.worker.on('exit', (code) => {
      if (this.stopped) return;
      this.stopped = true;
      const err = this.lastError;
      events.onExit(this, {
        outOfMemory: (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY',
        message: err ? err.message : `exit code ${code}`,
        ...(err ? { error: err } : {}),
      });
    });
  }

  send(message: unknown): boolean {
    this.worker.postMessage(message);
    return true;
  }

  keepAlive(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }
}

export interface ThreadWorkerOptions {
  /** The worker's entry module: a path or URL; `.ts` entries run through tsx. */
  script: string | URL;
  /** What the workers do, for thread names (`render` → `render-worker-3`) and launch errors. */
  noun: string;
  maxMemoryMb: number;
}

/** Starts threads on `script`; where it is is checked at the first start (a WorkerLaunchError). */
export function threadWorkers<Reply extends PoolReply>(opts: ThreadWorkerOptions): StartWorker<Reply> {
  let launch: ThreadLaunch | undefined;
  return (events) => {
    launch ??= threadLaunch(opts.script, `${opts.noun} worker`);
    return new ThreadWorker(launch, opts.maxMemoryMb, `${opts.noun}-worker`, events as WorkerEvents<PoolReply>);
  };
}
