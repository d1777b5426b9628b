// The preview load of bench/preview-load.js, in a process of its own: `clients` loops posting
// the same markdown table to the preview back to back. Not in the benchmark's process, which
// measures ping latency: sending megabytes and reading several more per answer keeps an event
// loop busy for tens of milliseconds at a time, and those stalls would count as ping latency.
//
// Started by fork with its options as JSON in argv[2] ({ url, headers, clients, bytes, rows });
// sends { type: 'started' } once the loops run, and on { type: 'stop' } lets each loop finish
// its request, sends { type: 'result', done: [ms per answered preview], problems: [...] } and
// exits. A lost parent stops it too.
import { setTimeout as sleep } from 'node:timers/promises';
import { markdownTable } from './preview-table.js';

const { url, headers, clients, bytes, rows } = JSON.parse(process.argv[2]);
const body = JSON.stringify({ painput: markdownTable(bytes, rows) });
const done = [];
const problems = [];
let stopping = false;

/** One preview; its answer read completely but not parsed (that would be load of its own). */
async function previewOnce() {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  const answer = Buffer.from(await res.arrayBuffer());
  if (res.status === 200 && answer.subarray(0, 15).toString() === '{"success":true')
    done.push(performance.now() - started);
  else problems.push(`preview answered ${res.status}: ${answer.subarray(0, 200).toString()}`);
}

async function loop() {
  while (!stopping) {
    try {
      await previewOnce();
    } catch (err) {
      problems.push(`preview request failed: ${err.message}`);
      await sleep(100);
    }
  }
}

const loops = Array.from({ length: clients }, loop);
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.all(loops);
  process.send?.({ type: 'result', done, problems });
  process.disconnect?.();
};
process.on('message', (msg) => {
  if (msg?.type === 'stop') void stop();
});
process.on('disconnect', () => {
  stopping = true;
});
process.send?.({ type: 'started' });
