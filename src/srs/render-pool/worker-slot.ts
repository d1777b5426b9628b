// One worker thread of the pool: started with the heap limit, reporting `ready`, its replies
// and how it ended (a deliberate stop, running out of memory, or a crash) to the pool.

import { Worker } from 'node:worker_threads';
import type { WorkerReply } from './protocol.js';
import type { WorkerLaunch } from './worker-script.js';

export interface SlotEvents {
  onReply(slot: WorkerSlot, reply: WorkerReply): void;
  /** The thread ended without being stopped by the pool. */
  onUnexpectedExit(slot: WorkerSlot, cause: SlotExit): void;
}

export interface SlotExit {
  outOfMemory: boolean;
  /** What ended it: the worker's uncaught error, or its exit code. */
  message: string;
  error?: Error;
}

let nextSlotNumber = 1;

export class WorkerSlot {
  readonly worker: Worker;
  readonly number = nextSlotNumber++;
  ready = false;
  /** Set once the pool stopped it on purpose: its exit is then expected. */
  stopped = false;
  private lastError: Error | undefined;

  constructor(launch: WorkerLaunch, maxMemoryMb: number, events: SlotEvents) {
    this.worker = new Worker(launch.filename, {
      ...(launch.workerData ? { workerData: launch.workerData } : {}),
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      name: `render-worker-${this.number}`,
    });
    // Idle workers must not keep the process alive; the pool refs them while it has work.
    this.worker.unref();
    this.worker.on('message', (msg: WorkerReply) => {
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
