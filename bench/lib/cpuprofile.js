// Summarises a V8 .cpuprofile: where the time went, by area (our code, each npm package, Node
// internals, GC), by function (self time) and, for the application and its packages, by
// function including callees (total time). Given the number of requests served while the
// profile was taken, times are also shown in µs per request.
// Used by `node bench/run.js --prof`, or standalone:
//   node bench/lib/cpuprofile.js <file.cpuprofile> [requests]
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { table } from './load.js';

function areaOf(url, name) {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)') return 'idle';
  if (name === '(program)') return '(program: native, not attributed)';
  if (!url) return name.startsWith('(') ? name : 'native (syscalls, builtins)';
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/dist/')) return 'platform-core (dist)';
  if (url.includes('/bench/')) return 'bench';
  return url;
}

const shortUrl = (url) => url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(dist|bench)\//, '$1/');
const keyOf = (cf) =>
  `${cf.functionName || '(anonymous)'}  ${cf.url ? `${shortUrl(cf.url)}:${cf.lineNumber + 1}` : ''}`.trimEnd();
const isApp = (url) =>
  !!url &&
  !url.startsWith('node:') &&
  (url.includes('/dist/') || url.includes('/node_modules/') || url.includes('/bench/'));

/**
 * @param {string} file
 * @param {{ top?: number, requests?: number }} [o]
 */
export async function summarize(file, o = {}) {
  const top = o.top ?? 25;
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map(); // node id → µs
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) self.set(samples[i], (self.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));

  const fns = new Map();
  const areas = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const cf = byId.get(id).callFrame;
    total += us;
    if (cf.functionName === '(idle)') {
      idle += us;
      continue;
    }
    fns.set(keyOf(cf), (fns.get(keyOf(cf)) ?? 0) + us);
    const area = areaOf(cf.url, cf.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }

  // Total time per application/package function: its samples and its callees', counted once
  // per stack (so recursion is not counted twice).
  const inclusive = new Map();
  const walk = (id, onStack) => {
    const node = byId.get(id);
    let sum = self.get(id) ?? 0;
    const key = isApp(node.callFrame.url) ? keyOf(node.callFrame) : null;
    const fresh = key !== null && !onStack.has(key);
    if (fresh) onStack.add(key);
    for (const c of node.children ?? []) sum += walk(c, onStack);
    if (fresh) {
      onStack.delete(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
    }
    return sum;
  };
  walk(profile.nodes[0].id, new Set());

  const busy = total - idle;
  const perReq = o.requests ? (us) => (us / o.requests).toFixed(2) : null;
  const cols = (us) => [`${((100 * us) / busy).toFixed(1)}%`, (us / 1000).toFixed(0), ...(perReq ? [perReq(us)] : [])];
  const head = (first) => [first, 'share', 'ms', ...(perReq ? ['µs/req'] : [])];
  const sorted = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s not idle` +
      `${o.requests ? `, ${o.requests} requests: ${(busy / o.requests).toFixed(1)} µs not idle per request` : ''}` +
      ' (wall-clock samples: time the process waits for a core while runnable counts as busy)',
    table(
      head('area (self time)'),
      sorted(areas, 15).map(([k, us]) => [k, ...cols(us)]),
    ),
    '',
    table(
      head('function (self time)'),
      sorted(fns, top).map(([k, us]) => [k, ...cols(us)]),
    ),
    '',
    table(
      head('application/package function (total time, with callees)'),
      sorted(inclusive, top).map(([k, us]) => [k, ...cols(us)]),
    ),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, requests] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/lib/cpuprofile.js <file.cpuprofile> [requests]');
    process.exit(2);
  }
  console.log(await summarize(file, { top: 40, requests: requests ? Number(requests) : undefined }));
}
