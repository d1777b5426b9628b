// The parent ↔ server-child protocol (over the fork IPC channel). A server child:
//   - gets its options as JSON in argv[2],
//   - starts listening on 127.0.0.1:<random port> and sends { type: 'ready', url },
//   - answers { type: 'gc' } with a full collection (when run with --expose-gc) and { type: 'gc-done' },
//   - answers { type: 'cpu' } with { type: 'cpu', usage: process.cpuUsage() } (CPU time the
//     server spent, which the parent turns into µs per request: steadier than requests/s when
//     other processes compete for the cores),
//   - on { type: 'profile-start' } / { type: 'profile-stop', file } records a V8 CPU profile of
//     what happens in between and writes it to `file` (answers 'profile-started' / 'profile-stopped'),
//   - on { type: 'loop-delay-start' } starts measuring how late the event loop runs a timer
//     (perf_hooks monitorEventLoopDelay, the same lag an operator sees in the metrics), and on
//     { type: 'loop-delay-stop' } answers { type: 'loop-delay', ms: { p50, p99, max, mean } } for
//     the stretch in between (all in ms),
//   - answers { type: 'runtime' } with { type: 'runtime', threadpool, cores }: libuv's thread
//     pool size (UV_THREADPOOL_SIZE or its default of 4) and the cores Node sees,
//   - on { type: 'stop' } (or a lost parent) closes cleanly and exits 0, so `--cpu-prof` can
//     write its profile.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// Load generation never happens in a server child: on a small machine the server and the load
// generator must not share one event loop (or one core, as far as the OS allows).

// CPU profiling of a chosen stretch (a measured run), not of the whole process as
// `node --cpu-prof` would: start-up and warm-up would otherwise blur the picture.
const profiler = {
  session: null,
  post(method, params) {
    return new Promise((resolve, reject) =>
      this.session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  },
  async start() {
    this.session ??= new Session();
    this.session.connect();
    await this.post('Profiler.enable');
    await this.post('Profiler.setSamplingInterval', { interval: 200 });
    await this.post('Profiler.start');
  },
  async stop(file) {
    const { profile } = await this.post('Profiler.stop');
    this.session.disconnect();
    await writeFile(file, JSON.stringify(profile));
  },
};

// A 1 ms timer resolution: the lag the goal is about (tens of ms) is seen to within a
// millisecond, and one more timer a millisecond costs the measured server next to nothing.
const LOOP_DELAY_RESOLUTION_MS = 1;
let loopDelay = null;

function loopDelayFigures(h) {
  const ms = (ns) => ns / 1e6;
  return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean) };
}

export function childOptions() {
  const raw = process.argv[2];
  return raw ? JSON.parse(raw) : {};
}

/**
 * @param {string} url the listening base URL
 * @param {() => Promise<void>} close closes the server and its resources
 */
export function serveUntilStopped(url, close) {
  if (!process.send) throw new Error('a bench server must be started by bench/run.js (it needs the IPC channel)');
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    try {
      await close();
    } catch (err) {
      console.error(`[bench server ${process.pid}] close failed:`, err);
      code = 1;
    }
    process.exit(code);
  };
  process.on('message', (msg) => {
    if (msg?.type === 'stop') void stop(0);
    else if (msg?.type === 'gc') {
      globalThis.gc?.();
      process.send?.({ type: 'gc-done' });
    } else if (msg?.type === 'cpu') {
      process.send?.({ type: 'cpu', usage: process.cpuUsage() });
    } else if (msg?.type === 'loop-delay-start') {
      loopDelay?.disable();
      loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
      loopDelay.enable();
      process.send?.({ type: 'loop-delay-started' });
    } else if (msg?.type === 'loop-delay-stop') {
      loopDelay?.disable();
      process.send?.({ type: 'loop-delay', ms: loopDelay ? loopDelayFigures(loopDelay) : null });
      loopDelay = null;
    } else if (msg?.type === 'runtime') {
      const size = Number(process.env.UV_THREADPOOL_SIZE);
      process.send?.({ type: 'runtime', threadpool: size > 0 ? size : 4, cores: availableParallelism() });
    } else if (msg?.type === 'profile-start') {
      profiler.start().then(
        () => process.send?.({ type: 'profile-started' }),
        (err) => process.send?.({ type: 'profile-started', error: String(err) }),
      );
    } else if (msg?.type === 'profile-stop') {
      profiler.stop(msg.file).then(
        () => process.send?.({ type: 'profile-stopped' }),
        (err) => process.send?.({ type: 'profile-stopped', error: String(err) }),
      );
    }
  });
  // The parent went away (crash, Ctrl-C): do not linger as an orphan holding a port.
  process.on('disconnect', () => void stop(0));
  process.send({ type: 'ready', url });
}

/** Fails the child visibly when startup throws (the parent sees the exit before 'ready'). */
export function startOrDie(main) {
  main().catch((err) => {
    console.error(`[bench server ${process.pid}] failed to start:`, err);
    process.exit(1);
  });
}
