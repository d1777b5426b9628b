// PDF export (issue 6) of the generated list report of 1,000 and 10,000 rows against Debian's
// Chromium printing our HTML of the same report:
//   in-process: our whole render (template + data → PDF) vs Chromium's page.setContent(html) +
//     page.pdf() over the DevTools protocol (browser already running) — aim ≥ 10× faster, and a
//     smaller file; our peak RSS at 10,000 rows aim < 300 MB (one fresh process per size);
//   whole processes: `platform-core render --format pdf` of the 10,000-row report against
//     `chromium --headless --print-to-pdf` of our HTML of it — required ≥ 5×.
// Without Chromium the comparisons are skipped with a message (our own figures still print).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listData, listTemplate } from './lib/report-fixture.js';

export const description = 'PDF export of a 1,000/10,000-row list vs Chromium printing our HTML';

const CHILD = fileURLToPath(new URL('./lib/pdf-child.js', import.meta.url));
const CLI = fileURLToPath(new URL('../bin/platform-core.js', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
// Root (CI, containers) needs --no-sandbox; the flags below are the usual headless ones.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

function ours(rows, repeats, htmlOut) {
  const args = [CHILD, String(rows), String(repeats), ...(htmlOut ? [htmlOut] : [])];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').at(-1));
}

async function chromiumInProcess(htmlFile, repeats) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS.slice(1) });
  try {
    const html = await readFile(htmlFile, 'utf8');
    let best = Infinity;
    let bytes = 0;
    for (let i = 0; i < repeats; i++) {
      const page = await browser.newPage();
      const t0 = process.hrtime.bigint();
      await page.setContent(html, { waitUntil: 'load' });
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
      bytes = pdf.length;
      await page.close();
    }
    return { ms: best, bytes };
  } finally {
    await browser.close();
  }
}

/** Wall-clock time of a whole process (best of `repeats`). */
function timeProcess(cmd, args, repeats) {
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0)
      throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${String(r.stderr).slice(0, 500)}`);
    best = Math.min(best, ms);
  }
  return best;
}

export async function run({ options, log }) {
  const failures = [];
  const summary = [];
  const repeats = Math.max(2, Math.min(5, options.rounds));
  const dir = await mkdtemp(join(tmpdir(), 'platform-core-pdf-bench-'));
  try {
    const sizes = [1_000, 10_000];
    const results = sizes.map((rows) => ({ rows, ours: ours(rows, repeats, join(dir, `list-${rows}.html`)) }));
    for (const { rows, ours: r } of results) {
      log(
        `${String(rows).padStart(6)} rows: ${r.pages} pages, ours ${r.ms.toFixed(0)} ms ` +
          `(${((r.pages * 1000) / r.ms).toFixed(0)} pages/s; PDF export alone ${r.exportMs.toFixed(0)} ms), ` +
          `${(r.bytes / 1024).toFixed(0)} KiB PDF, peak ` +
          `RSS ${r.peakRssMb?.toFixed(0)} MB`,
      );
      if (r.warnings > 0) failures.push(`the ${rows}-row report produced warnings`);
    }
    const large = results.at(-1).ours;
    log(`peak RSS at 10,000 rows: ${large.peakRssMb?.toFixed(0)} MB (aim < 300)`);
    summary.push(`pdf: ${large.peakRssMb?.toFixed(0)} MB peak at 10,000 rows`);
    summary.push(
      `pdf 10,000 rows: ${((large.pages * 1000) / large.ms).toFixed(0)} pages/s whole render, export alone ` +
        `${large.exportMs.toFixed(0)} ms, ${(large.bytes / 1024).toFixed(0)} KiB`,
    );

    if (!existsSync(CHROMIUM)) {
      log(`Chromium comparison SKIPPED: no ${CHROMIUM} (apt-get install chromium)`);
      return { failures, headlines: summary };
    }
    for (const res of results) {
      const c = await chromiumInProcess(join(dir, `list-${res.rows}.html`), repeats);
      const speed = c.ms / res.ours.ms;
      log(
        `${String(res.rows).padStart(6)} rows: Chromium (setContent + page.pdf) ${c.ms.toFixed(0)} ` +
          `ms, ${(c.bytes / 1024).toFixed(0)} KiB → ours is ${speed.toFixed(1)}× faster (aim ≥ 10), ` +
          `file ${(res.ours.bytes / c.bytes).toFixed(2)}× Chromium's size (aim < 1)`,
      );
      summary.push(
        `pdf ${res.rows} rows: ${speed.toFixed(1)}× Chromium's ` +
          `speed, ${(res.ours.bytes / c.bytes).toFixed(2)}× its file size`,
      );
    }

    // Whole processes, 10,000 rows: the CLI from template + JSON file, Chromium from our HTML file.
    const frx = join(dir, 'list.frx');
    const data = join(dir, 'list.json');
    await writeFile(frx, listTemplate());
    await writeFile(data, JSON.stringify(listData(10_000)));
    const cliMs = timeProcess(
      process.execPath,
      [CLI, 'render', frx, '--data', data, '--format', 'pdf', '--out', join(dir, 'cli.pdf')],
      repeats,
    );
    const chromeMs = timeProcess(
      CHROMIUM,
      [
        ...CHROMIUM_ARGS,
        `--print-to-pdf=${join(dir, 'chrome.pdf')}`,
        '--no-pdf-header-footer',
        `file://${join(dir, 'list-10000.html')}`,
      ],
      repeats,
    );
    const cliSize = (await stat(join(dir, 'cli.pdf'))).size;
    const chromeSize = (await stat(join(dir, 'chrome.pdf'))).size;
    const ratio = chromeMs / cliMs;
    log(
      `whole process, 10,000 rows: platform-core render ${cliMs.toFixed(0)} ms ` +
        `(${(cliSize / 1024).toFixed(0)} KiB), chromium --print-to-pdf ${chromeMs.toFixed(0)} ms ` +
        `(${(chromeSize / 1024).toFixed(0)} KiB) → ${ratio.toFixed(1)}× (required ≥ 5)`,
    );
    summary.push(`pdf whole-process: ${ratio.toFixed(1)}× chromium --print-to-pdf`);
    if (ratio < 5) failures.push(`whole-process PDF render only ${ratio.toFixed(1)}× Chromium's speed (required ≥ 5)`);
    return { failures, headlines: summary };
  } finally {
    if (!options.keep) await rm(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}
