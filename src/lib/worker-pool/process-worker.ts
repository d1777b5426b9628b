// Workers as child processes, for work a thread cannot be stopped in: a native call (an SQLite
// statement) runs on after worker.terminate(), holding its locks, while SIGKILL ends a process
// at once. Messages are JSON over the IPC channel. Processes still alive when the host process
// exits (it did not close its pools) are killed then.

import { spawn, type ChildProcess } from 'node:child_process';
import type { ProcessLaunch } from './launch.js';
import type { PoolReply, PoolWorker, StartWorker, WorkerEvents } from './pool-worker.js';

const live = new Set<ChildProcess>();
let killOnExitInstalled = false;
function killOnExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (killOnExitInstalled) return;
  killOnExitInstalled = true;
  process.on('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

class ProcessWorker implements PoolWorker {
  readonly child: ChildProcess;
  ready = false;
  stopped = false;
  private readonly exited: Promise<void>;

  constructor(launch: ProcessLaunch, args: readonly string[], events: WorkerEvents<PoolReply>) {
    // stdout is unused; stderr is the host's, so a crash of the process is visible there.
    this.child = spawn(process.execPath, [...launch.args, ...args], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    killOnExit(this.child);
    this.keepAlive(false);
    this.child.on('message', (msg: PoolReply) => {
      if (msg?.type === 'ready') this.ready = true;
      events.onReply(this, msg);
    });
    let spawnError: Error | undefined;
    this.exited = new Promise((resolve) => {
      const ended = (message: string) => {
        resolve();
        if (this.stopped) return;
        this.stopped = true;
        events.onExit(this, { outOfMemory: false, message });
      };
      // 'error' without 'exit' when the process could not be started at all.
      this.child.on('error', (err) => {
        spawnError = err;
        if (this.child.pid === undefined) ended(`cannot start: ${err.message}`);
      });
      this.child.on('exit', (code, signal) =>
        ended(spawnError?.message ?? (signal ? `killed by ${signal}` : `exit code ${code}`)),
      );
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(message: unknown): boolean {
    if (!this.child.connected) return false;
    this.child.send(message as object, undefined, {}, () => undefined);
    return true;
  }

  keepAlive(on: boolean): void {
    if (on) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }
}

export interface ProcessWorkerOptions {
  /** How to start `node` on the entry (processLaunch()); called at the first start, so that a
   *  missing script fails the jobs (a WorkerLaunchError) rather than the pool's construction. */
  launch: () => ProcessLaunch;
  /** The process's own arguments, after the entry. */
  args: readonly string[];
}

export function processWorkers<Reply extends PoolReply>(opts: ProcessWorkerOptions): StartWorker<Reply> {
  let launch: ProcessLaunch | undefined;
  return (events) => {
    launch ??= opts.launch();
    return new ProcessWorker(launch, opts.args, events as WorkerEvents<PoolReply>);
  };
}
