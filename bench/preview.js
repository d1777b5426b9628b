// Markdown preview throughput against bare markdown-it on the same input (issue 4: report the
// ratio; sanitising must not cost more than the parse). Three documents: ordinary markdown (this
// project's README: the sanitiser is skipped, see src/system/markdown.ts); the same with one line
// of raw HTML (the sanitiser then runs over the whole output: the costliest case relative to the
// parse, as the README parses fast); and markdown full of raw HTML (the CommonMark spec's
// examples, the figure issue 4 asks for).
//
// Besides preview/bare, what one sanitiser pass over the rendered document costs, as a multiple
// of the parse: the preview's own sanitiser (src/system/preview-sanitizer.ts) and, for
// comparison, sanitize-html under the same policy (the sanitiser it replaced). The machine may be
// shared: every figure is a median of per-round ratios, each round timing all targets back to
// back, each target by the CPU time it used.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { preview, renderMarkdown, sanitize } from '../dist/system/markdown.js';
import { sanitizeHtmlReferenceOptions } from '../dist/system/preview-policy-reference.js';
import { fmt, median, opsPerSecond } from './lib/timing.js';

export const description = 'markdown preview (render + sanitise) vs bare markdown-it';

function documents() {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const spec = createRequire(import.meta.url)('commonmark-spec')
    .tests.map((t) => t.markdown)
    .join('\n\n');
  return {
    'README (no raw HTML)': readme,
    'README + one line of raw HTML': `${readme}\n\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd>.\n`,
    'CommonMark examples (raw HTML)': spec,
  };
}

/**
 * Like opsPerSecond, but per second of this process's CPU time (user + system, GC threads
 * included) rather than of wall-clock time: on a machine shared with other work, time spent
 * waiting for a core is not counted against whichever target happened to be running.
 */
function cpuOpsPerSecond(fn, ms) {
  const cpuMicros = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const start = cpuMicros();
  let ops = 0;
  let used = 0;
  while (used < ms * 1000) {
    for (let i = 0; i < 4; i++) fn();
    ops += 4;
    used = cpuMicros() - start;
  }
  return ops / (used / 1e6);
}

/** { name: fn } → per-round ops per CPU second, all targets timed back to back in each round. */
function rounds(fns, { rounds, ms, warmupMs }) {
  for (const fn of Object.values(fns)) opsPerSecond(fn, warmupMs); // the JIT's optimising tiers
  return Array.from({ length: rounds }, () =>
    Object.fromEntries(Object.entries(fns).map(([k, fn]) => [k, cpuOpsPerSecond(fn, ms)])),
  );
}

export async function run({ options, log }) {
  const bare = new MarkdownIt('commonmark').enable(['table', 'strikethrough']);
  const referenceOptions = sanitizeHtmlReferenceOptions();
  // Many short rounds rather than a few long ones: a burst of load on a shared machine then
  // spoils a few ratios, not the median.
  const ms = Math.max(150, options.duration * 40);
  const count = Math.max(9, options.rounds * 3);
  // --warmup applies, capped: the targets are small functions, optimised within a fraction of that.
  const warmupMs = Math.min(options.warmup, 0.5) * 1000;
  const failures = [];
  const headlines = [];
  for (const [name, doc] of Object.entries(documents())) {
    const rendered = renderMarkdown(doc);
    const samples = rounds(
      { bare: () => bare.render(doc), preview: () => preview(doc), sanitizer: () => sanitize(rendered) },
      { rounds: count, ms, warmupMs },
    );
    // Apart, so that its garbage does not land in the other targets' time.
    const reference = rounds(
      { bare: () => bare.render(doc), sanitizeHtml: () => sanitizeHtml(rendered, referenceOptions) },
      { rounds: Math.ceil(count / 2), ms, warmupMs },
    );
    const ratio = (f, of = samples) => median(of.map(f));
    const previewRatio = ratio((s) => s.preview / s.bare);
    const sanitised = preview(doc) !== rendered;
    log(
      `${name}: ${(doc.length / 1024).toFixed(0)} KiB; bare ${fmt(ratio((s) => s.bare))}, ` +
        `preview ${fmt(ratio((s) => s.preview))} per CPU second (medians of ${count} rounds)`,
    );
    log(`  ratio preview/bare = ${previewRatio.toFixed(2)}; sanitiser ${sanitised ? 'runs' : 'skipped'}`);
    log(
      `  one sanitiser pass costs ${ratio((s) => s.bare / s.sanitizer).toFixed(2)}× the parse ` +
        `(sanitize-html, same policy: ${ratio((s) => s.bare / s.sanitizeHtml, reference).toFixed(2)}×)`,
    );
    headlines.push(`ratio preview/bare = ${previewRatio.toFixed(2)}: ${name}`);
    if (sanitize(rendered) !== sanitizeHtml(rendered, referenceOptions))
      failures.push(`${name}: the sanitiser's output differs from sanitize-html's under the same policy`);
  }
  if (preview('<script>alert(1)</script>x').includes('script')) failures.push('sanitiser let a script through');
  return { failures, headlines };
}
