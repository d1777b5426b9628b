// How a measuring child (pdf-child.js, report-child.js) hands its one JSON line to the bench:
// measured in this process, or with `--worker=MB` in a worker thread under a heap limit as the
// render pool's workers have (the peak it reads is still the whole process's: /proc/self).
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

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
