// One SQLite command process of the pool: started with the database file, reporting `ready`,
// its replies and how it ended (a deliberate kill, or a crash) to the pool.
import { spawn, type ChildProcess } from 'node:child_process';
import type { RunnerReply, RunRequest } from './protocol.js';
import type { RunnerLaunch } from './runner-launch.js';

export interface RunnerEvents {
  onReply(slot: RunnerSlot, reply: RunnerReply): void;
  /** The process ended (or could not start) without being stopped by the pool. */
  onUnexpectedExit(slot: RunnerSlot, message: string): void;
}

export class RunnerSlot {
  readonly child: ChildProcess;
  ready = false;
  /** Set once the pool stopped it on purpose: its exit is then expected. */
  stopped = false;
  private readonly exited: Promise<void>;

  constructor(launch: RunnerLaunch, file: string, events: RunnerEvents) {
    // stdout is unused; stderr is the server's, so a crash of the process is visible there.
    this.child = spawn(process.execPath, [...launch.args, file], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    this.keepAlive(false);
    this.child.on('message', (msg: RunnerReply) => {
      if (msg?.type === 'ready') this.ready = true;
      events.onReply(this, msg);
    });
    let spawnError: Error | undefined;
    this.exited = new Promise((resolve) => {
      const ended = (message: string) => {
        resolve();
        if (this.stopped) return;
        this.stopped = true;
        events.onUnexpectedExit(this, message);
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

  /** Whether this process keeps the server's event loop alive (only while it has work). */
  keepAlive(on: boolean): void {
    if (on) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  /** Sends a request; false when the channel is already gone (the exit event follows). */
  send(request: RunRequest): boolean {
    if (!this.child.connected) return false;
    this.child.send(request, undefined, {}, () => undefined);
    return true;
  }

  /** Kills the process at once (a running statement ends with it); resolves once it is gone. */
  stop(): Promise<void> {
    this.stopped = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }
}
