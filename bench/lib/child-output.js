// What the measuring children (pdf-child.js, report-child.js, matrix-child.js) share: their
// command line, the process's peak RSS, and how one hands its one JSON line to the bench:
// measured in this process, or with `--worker=MB` in a worker thread under a heap limit as the
// render pool's workers have (the peak it reads is still the whole process's: /proc/self).
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/** The child's arguments: `--name=value` flags by name, and the others in order. */
export function childArgs(argv = process.argv.slice(2)) {
  return {
    flags: new Map(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('='))),
    positional: argv.filter((a) => !a.startsWith('--')),
  };
}

/** The process's peak resident memory so far in MB (Linux VmHWM), or null where /proc has none. */
export function peakRssMb() {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) / 1024 : null;
}

/** Runs `measure` here or in a worker of `childUrl` (the calling module) and prints its result.
 *  In the worker thread itself, posts the result back to the parent instead. */
export async function printMeasured(childUrl, flags, measure, workerData = undefined) {
  if (!isMainThread) {
    parentPort.postMessage(await measure());
    return;
  }
  if (!flags.has('worker')) {
    process.stdout.write(`${JSON.stringify(await measure())}\n`);
    return;
  }
  const worker = new Worker(new URL(childUrl), {
    argv: process.argv.slice(2),
    ...(workerData !== undefined ? { workerData } : {}),
    resourceLimits: { maxOldGenerationSizeMb: Number(flags.get('worker')) },
  });
  worker.once('message', (measured) => {
    process.stdout.write(`${JSON.stringify(measured)}\n`);
    void worker.terminate();
  });
  worker.once('error', (e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
