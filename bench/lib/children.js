// Starts bench servers as child processes (see servers/protocol.js) and makes sure none
// outlives the run: each child is stopped by the benchmark that started it, and any still
// alive when the parent exits is killed by its own handle (never by name).
import { fork } from 'node:child_process';
import { once } from 'node:events';

const live = new Set();

process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * @param {string} label shown in messages ("platform", "bare")
 * @param {URL} script the server module (bench/servers/*.js)
 * @param {object} options passed to the child as JSON (argv[2])
 * @param {{ readyTimeoutMs?: number }} [how]
 */
export async function startServerChild(label, script, options, how = {}) {
  const execArgv = ['--expose-gc'];
  const child = fork(script, [JSON.stringify(options)], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  live.add(child);
  let exited = null;
  const exitPromise = once(child, 'exit').then(([code, signal]) => {
    live.delete(child);
    exited = { code, signal };
    return exited;
  });

  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} server: not ready after ${how.readyTimeoutMs ?? 60_000} ms`)),
      how.readyTimeoutMs ?? 60_000,
    );
    child.on('message', function onReady(msg) {
      if (msg?.type !== 'ready') return;
      clearTimeout(timer);
      child.off('message', onReady);
      resolve(msg.url);
    });
    exitPromise.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${label} server exited before it was ready (code ${code}, signal ${signal})`));
    });
  }).catch(async (err) => {
    if (!exited) child.kill('SIGKILL');
    throw err;
  });

  /** Sends `msg` and resolves with the first answer of type `answerType` (null if the child exits). */
  const ask = (msg, answerType) => {
    if (exited) return Promise.resolve(null);
    const answer = new Promise((resolve) => {
      const onMsg = (m) => {
        if (m?.type === answerType) {
          child.off('message', onMsg);
          resolve(m);
        }
      };
      child.on('message', onMsg);
      exitPromise.then(() => resolve(null));
    });
    child.send(msg);
    return answer;
  };

  return {
    label,
    url,
    pid: child.pid,
    /** null while running, else how it ended. */
    get exited() {
      return exited;
    },
    /** A full GC in the child, so every measured run starts from a similar heap. */
    async gc() {
      await ask({ type: 'gc' }, 'gc-done');
    },
    /** The child's process.cpuUsage() (µs of user and system time since it started). */
    async cpuUsage() {
      return (await ask({ type: 'cpu' }, 'cpu'))?.usage ?? null;
    },
    /** Starts measuring the child's event-loop delay (perf_hooks monitorEventLoopDelay). */
    async loopDelayStart() {
      await ask({ type: 'loop-delay-start' }, 'loop-delay-started');
    },
    /** Stops it: { p50, p99, max, mean } in ms since loopDelayStart(), or null. */
    async loopDelayStop() {
      return (await ask({ type: 'loop-delay-stop' }, 'loop-delay'))?.ms ?? null;
    },
    /** The child's libuv thread pool size and the cores it sees: { threadpool, cores }. */
    async runtime() {
      return ask({ type: 'runtime' }, 'runtime');
    },
    /** Starts a CPU profile in the child (V8 sampling profiler, via node:inspector). */
    async profileStart() {
      const answer = await ask({ type: 'profile-start' }, 'profile-started');
      if (answer?.error) throw new Error(`${label} server: profiler: ${answer.error}`);
    },
    /** Stops it and has the child write the .cpuprofile to `file`. */
    async profileStop(file) {
      const answer = await ask({ type: 'profile-stop', file }, 'profile-stopped');
      if (answer?.error) throw new Error(`${label} server: profiler: ${answer.error}`);
    },
    /** Stops the child cleanly; SIGKILL after 15 s. */
    async stop() {
      if (exited) return exited;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exitPromise;
      clearTimeout(timer);
      return result;
    },
  };
}
