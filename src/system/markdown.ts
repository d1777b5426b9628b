// Markdown (CommonMark + GitHub tables and strikethrough) to HTML, under the preview's allow-list
// policy (preview-policy.ts): nothing that can run script, load a frame or restyle the page
// survives, whatever the input.
import MarkdownIt from 'markdown-it';
import { CODE_CLASS, LINK_REL, urlAllowed } from './preview-policy.js';
import { HtmlSanitizerStream, sanitizeHtml } from './preview-sanitizer.js';
import {
  compactTableBodies,
  isTableBodyRows,
  tableRowsHeldRawHtml,
  tableRowsMayHoldRawHtml,
} from './markdown-table-rows.js';

const md = new MarkdownIt('commonmark').enable(['table', 'strikethrough']);
type Token = ReturnType<MarkdownIt['parse']>[number];

export type PreviewType = 'markdown' | 'html';

/** `html` with everything the preview policy does not allow removed (preview-sanitizer.ts). */
export function sanitize(html: string): string {
  return sanitizeHtml(html);
}

// markdown-it escapes all text and attribute values itself and checks every link and image URL
// with validateLink (no javascript:, vbscript:, file:; data: only for raster images). Its output
// can only carry markup it did not write through raw HTML tokens. So the sanitiser runs only
// where the source holds raw HTML (see renderSanitisingRawHtml); the link policy (rel, raster
// data: images) is applied here so both paths give the same result.
const dropUnlessAllowed = (token: Token, attr: 'href' | 'src', tag: 'a' | 'img') => {
  const url = token.attrGet(attr);
  if (url !== null && !urlAllowed(url, tag)) token.attrs = (token.attrs ?? []).filter(([name]) => name !== attr);
};
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  dropUnlessAllowed(tokens[idx]!, 'href', 'a');
  tokens[idx]!.attrSet('rel', LINK_REL);
  return self.renderToken(tokens, idx, options);
};
const renderImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  dropUnlessAllowed(tokens[idx]!, 'src', 'img');
  return renderImage(tokens, idx, options, env, self);
};
const renderFence = md.renderer.rules.fence!;
md.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const html = renderFence(tokens, idx, options, env, self);
  // markdown-it writes the info string's first word as the class; keep only plain language names.
  return html.replace(/^<pre><code class="([^"]*)">/, (whole, cls: string) =>
    CODE_CLASS.test(cls) ? whole : '<pre><code>',
  );
};

const hasRawHtml = (tokens: Token[]): boolean =>
  tokens.some(
    (t) => t.type === 'html_block' || t.type === 'html_inline' || (t.children !== null && hasRawHtml(t.children)),
  );
// Large tables cost time and memory linear in their size (markdown-table-rows.ts). Their cells
// are parsed only when rendered, so before that a table body can only say whether it may hold
// raw HTML; renderSanitisingRawHtml learns for sure.
compactTableBodies(md, hasRawHtml);
const mayHoldRawHtml = (tokens: Token[]): boolean =>
  tokens.some((t) => (isTableBodyRows(t) ? tableRowsMayHoldRawHtml(t) : hasRawHtml([t])));

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/**
 * The document's HTML, with the sanitiser run over the blocks that hold raw HTML and over what
 * follows them until the sanitiser is back at rest: from there on, sanitising the rest alone
 * gives what sanitising the whole document gives, and blocks without raw HTML are markdown-it's
 * output, which the sanitiser leaves as it is (but for markdown-it's `&quot;` for `"` in text).
 * So the result is what sanitising the whole output gives (test/unit/markdown-fast-path.test.ts
 * checks it), at the cost of sanitising only the parts with raw HTML: an ordinary document with
 * one line of HTML no longer pays for a pass over all of it. Safe whatever the split: each piece
 * is either markdown-it's own output or the sanitiser's, both balanced and allow-listed, and
 * neither ends inside a tag.
 */
function renderSanitisingRawHtml(tokens: Token[], env: object): string {
  // markdown-it's Renderer.render (the same loop over the same public rules), noting where each
  // top-level block's HTML ends and whether the block holds raw HTML. A block ends with its
  // closing token, or is one token (hr, fence, code_block, html_block).
  const { renderer, options } = md;
  let html = '';
  const blocks: Array<{ end: number; raw: boolean }> = [];
  let raw = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const rule = renderer.rules[token.type];
    if (token.type === 'inline') html += renderer.renderInline(token.children ?? [], options, env);
    else
      html += rule !== undefined ? rule(tokens, i, options, env, renderer) : renderer.renderToken(tokens, i, options);
    raw ||=
      token.type === 'html_block' ||
      (token.children !== null && hasRawHtml(token.children)) ||
      (isTableBodyRows(token) && tableRowsHeldRawHtml(token));
    if (token.level === 0 && token.nesting !== 1) {
      blocks.push({ end: html.length, raw });
      raw = false;
    }
  }
  if (blocks.at(-1)?.end !== html.length) blocks.push({ end: html.length, raw });
  // A table whose cells only looked as if they might hold raw HTML (a `<` in a code span).
  if (!blocks.some((block) => block.raw)) return html;

  let out = '';
  let sanitiser: HtmlSanitizerStream | null = null;
  let start = 0;
  for (const block of blocks) {
    if (sanitiser === null && !block.raw) {
      out += html.slice(start, block.end);
    } else {
      sanitiser ??= new HtmlSanitizerStream(html, start);
      sanitiser.advanceTo(block.end);
      if (sanitiser.atRest()) {
        out += sanitiser.end();
        sanitiser = null;
      }
    }
    start = block.end;
  }
  return sanitiser === null ? out : out + sanitiser.end();
}

export function preview(source: string, type: PreviewType = 'markdown'): string {
  if (type === 'html') return sanitize(source);
  const env = {};
  const tokens = md.parse(source, env);
  return mayHoldRawHtml(tokens) ? renderSanitisingRawHtml(tokens, env) : md.renderer.render(tokens, md.options, env);
}
