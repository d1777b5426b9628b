// The web fonts an HTML report links, fetched from a server just started: `node bin/platform-core.js
// serve` on a fresh DATA_DIR, then the four Arimo faces (what a report in Arial draws with), all
// at once as a browser asks for them, timed from the request to the last byte of the last face:
//   at-once  the moment GET /api/core/system/ping first answers
//   settled  SETTLE_MS after that (a start that prepares the faces has done so by then)
// Wall-clock over loopback; each round is a new process, so every face is cold in it. A face is
// counted when it arrives as a font, WOFF2 or the face's own file.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { median } from './lib/timing.js';

export const description = 'the four Arimo faces of an HTML report from a server just started (at once / settled)';
export const defaults = { rounds: 3 };

const BIN = fileURLToPath(new URL('../bin/platform-core.js', import.meta.url));
const SETTLE_MS = 20_000;
const READY_TIMEOUT_MS = 60_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The served names of Arimo's faces, from the compiled engine (what an HTML report links). */
async function arimoPaths() {
  const report = await import(new URL('../dist/report/index.js', import.meta.url).href);
  const text = await import(new URL('../dist/report/text/index.js', import.meta.url).href);
  return [false, true].flatMap((bold) =>
    [false, true].map((italic) => `/fonts/${report.webFontFileName(text.getFace('Arimo', bold, italic))}`),
  );
}

async function startServe(keep) {
  const dataDir = await mkdtemp(join(tmpdir(), 'pc-font-'));
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      Settings__LogLevel: 'warn',
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  };
  const started = performance.now();
  while (performance.now() - started < READY_TIMEOUT_MS) {
    if (exited) throw new Error('serve exited before answering');
    const ok = await fetch(`${url}/api/core/system/ping`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, stop };
    await sleep(5);
  }
  await stop();
  throw new Error(`serve did not answer within ${READY_TIMEOUT_MS} ms`);
}

/** All faces at once; ms until the last one has arrived, and how many came as WOFF2 (the rest as
 *  the face's own file, answered while its WOFF2 is made). Throws unless each is a 200 font. */
async function fetchFaces(url, paths) {
  const t = performance.now();
  const magics = await Promise.all(
    paths.map(async (path) => {
      const res = await fetch(url + path);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('font/'))
        throw new Error(`${path}: ${res.status} ${body.subarray(0, 200)}`);
      return body.subarray(0, 4).toString('latin1');
    }),
  );
  return { ms: performance.now() - t, woff2: magics.filter((m) => m === 'wOF2').length };
}

export async function run({ options, log }) {
  const paths = await arimoPaths();
  const atOnce = [];
  const settled = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const wait of [0, SETTLE_MS]) {
      const server = await startServe(options.keep);
      try {
        if (wait) await sleep(wait);
        const { ms, woff2 } = await fetchFaces(server.url, paths);
        (wait ? settled : atOnce).push(ms);
        log(`round ${round + 1}: ${wait ? 'settled' : 'at-once'} ${ms.toFixed(0)} ms (${woff2} of 4 as WOFF2)`);
      } finally {
        await server.stop();
      }
    }
  }
  const headline =
    `first fonts (4 Arimo faces): at-once median ${median(atOnce).toFixed(0)} ms, ` +
    `settled median ${median(settled).toFixed(0)} ms`;
  log(headline);
  return { failures: [], headlines: [headline] };
}
