// A script-heavy report against the plain one (issue 22, goal 2): the generated list of
// lib/report-fixture.js, and the same list with a C# BeforePrint handler run on every one of its
// 10,000 rows. Both render alternately in the same fresh process (per format, `--rounds`
// processes); the figure is script time / plain time of the best renders (aim ≤ 2), wall
// time and the process's CPU time (steadier when other work shares the machine).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const description = 'report engine: 10,000-row list with a script handler per row vs without (PDF, HTML)';

const CHILD = fileURLToPath(new URL('./lib/script-child.js', import.meta.url));
const ROWS = 10_000;

function measure(format, processes) {
  const runs = Array.from({ length: processes }, () =>
    JSON.parse(
      execFileSync(process.execPath, [CHILD, String(ROWS), format, '4'], { encoding: 'utf8', maxBuffer: 1 << 20 })
        .trim()
        .split('\n')
        .at(-1),
    ),
  );
  return {
    plain: Math.min(...runs.map((r) => r.plain)),
    script: Math.min(...runs.map((r) => r.script)),
    plainCpu: Math.min(...runs.map((r) => r.plainCpu)),
    scriptCpu: Math.min(...runs.map((r) => r.scriptCpu)),
    pages: runs[0].pages,
    warnings: runs.reduce((n, r) => n + r.warnings, 0),
  };
}

export async function run({ options, log }) {
  const processes = Math.max(1, Math.min(5, options.rounds));
  const failures = [];
  const ratios = [];
  for (const format of ['pdf', 'html']) {
    const r = measure(format, processes);
    const ratio = r.script / r.plain;
    ratios.push(`${format.toUpperCase()} ${ratio.toFixed(2)}`);
    log(
      `${format.toUpperCase().padEnd(4)} ${ROWS} rows, ${r.pages} pages: plain ${r.plain.toFixed(0)} ms, ` +
        `script ${r.script.toFixed(0)} ms → script/plain ${ratio.toFixed(2)} (aim ≤ 2); CPU time ` +
        `${r.plainCpu.toFixed(0)} / ${r.scriptCpu.toFixed(0)} ms → ${(r.scriptCpu / r.plainCpu).toFixed(2)}`,
    );
    if (r.warnings > 0) failures.push(`${format}: the generated reports produced warnings`);
  }
  return { failures, headlines: [`script-heavy list: script/plain time ${ratios.join(', ')} (aim ≤ 2)`] };
}
