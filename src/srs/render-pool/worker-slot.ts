// One worker thread of the pool: started with the heap limit, reporting `ready`, its replies
// and how it ended (a deliberate stop, running out of memory, or a crash) to the pool. The
// preview pool (src/system/preview-pool.ts) runs its workers in these slots too, with its own
// replies and thread name.

import { Worker } from 'node:worker_threads';
import type { WorkerReply } from './protocol.js';
import type { WorkerLaunch } from './worker-script.js';

/** What a worker posts: `{ type: 'ready' }` once loaded, then its pool's replies. */
export interface SlotReply {
  type: string;
}

export interface SlotEvents<Reply extends SlotReply = WorkerReply> {
  onReply(slot: WorkerSlot<Reply>, reply: Reply): void;
  /** The thread ended without being stopped by the pool. */
  onUnexpectedExit(slot: WorkerSlot<Reply>, cause: SlotExit): void;
}

export interface SlotExit {
  outOfMemory: boolean;
  /** What ended it: the worker's uncaught error, or its exit code. */
  message: string;
  error?: Error;
}

let nextSlotNumber = 1;

export class WorkerSlot<Reply extends SlotReply = WorkerReply> {
  readonly worker: Worker;
  readonly number = nextSlotNumber++;
  ready = false;
  /** Set once the pool stopped it on purpose: its exit is then expected. */
  stopped = false;
  private lastError: Error | undefined;

  constructor(launch: WorkerLaunch, maxMemoryMb: number, events: SlotEvents<Reply>, name = 'render-worker') {
    this.worker = new Worker(launch.filename, {
      ...(launch.workerData ? { workerData: launch.workerData } : {}),
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      name: `${name}-${this.number}`,
    });
    // Idle workers must not keep the process alive; the pool refs them while it has work.
    this.worker.unref();
    this.worker.on('message', (msg: Reply) => {
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
      const outOfMemory = (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      events.onUnexpectedExit(this, {
        outOfMemory,
        message: err ? err.message : `exit code ${code}`,
        ...(err ? { error: err } : {}),
      });
    });
  }

  /** Whether this thread keeps the process alive. */
  keepAlive(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  /** Stops the thread (a running render is interrupted). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }
}
