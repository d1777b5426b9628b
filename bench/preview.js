// Markdown preview throughput against bare markdown-it on the same input (issue 4: report the
// ratio; sanitising must not cost more than the parse). Two documents: ordinary markdown (this
// project's README: the sanitiser is skipped, see src/system/markdown.ts) and markdown full of
// raw HTML (the CommonMark spec's examples: every output goes through the sanitiser).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import MarkdownIt from 'markdown-it';
import { preview, renderMarkdown, sanitize } from '../dist/system/markdown.js';
import { compare, fmt } from './lib/timing.js';

export const description = 'markdown preview (render + sanitise) vs bare markdown-it';

function documents() {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const spec = createRequire(import.meta.url)('commonmark-spec').tests.map((t) => t.markdown).join('\n\n');
  return { 'README (no raw HTML)': readme, 'CommonMark examples (raw HTML)': spec };
}

export async function run({ options, log }) {
  const bare = new MarkdownIt('commonmark').enable(['table', 'strikethrough']);
  const ms = Math.max(300, options.duration * 100);
  for (const [name, doc] of Object.entries(documents())) {
    const rendered = renderMarkdown(doc);
    const r = compare(
      { bare: () => bare.render(doc), preview: () => preview(doc), sanitizeOnly: () => sanitize(rendered) },
      { rounds: Math.max(3, options.rounds), ms },
    );
    const sanitised = preview(doc) !== rendered;
    log(`${name}: ${(doc.length / 1024).toFixed(0)} KiB; bare ${fmt(r.bare)}, preview ${fmt(r.preview)}`);
    log(`  ratio preview/bare = ${(r.preview / r.bare).toFixed(2)}; sanitiser ${sanitised ? 'runs' : 'skipped'}; a sanitiser pass would cost ${(r.bare / r.sanitizeOnly).toFixed(2)}× the parse`);
  }
  return { failures: preview('<script>alert(1)</script>x').includes('script') ? ['sanitiser let a script through'] : [] };
}
