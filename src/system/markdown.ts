// Markdown (CommonMark + GitHub tables and strikethrough) to HTML, and an allow-list HTML
// sanitiser applied to every output: nothing that can run script, load a frame or restyle the
// page survives, whatever the input.
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const md = new MarkdownIt('commonmark').enable(['table', 'strikethrough']);
type Token = ReturnType<MarkdownIt['parse']>[number];

// The URL and class policy, shared by the sanitiser (raw HTML) and the renderer (markdown).
const IMAGE_DATA_URL = /^data:image\/(png|gif|jpe?g|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]*$/i;
const SCHEMES = { a: ['http', 'https', 'mailto', 'tel'], img: ['http', 'https', 'data'] };
const CODE_CLASS = /^language-[A-Za-z0-9_+-]+$/;

/** The URL's scheme as a browser sees it (it ignores tabs, newlines and leading controls), or null. */
function schemeOf(url: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url.replace(/[\u0000-\u0020]/g, ''));
  return m ? m[1]!.toLowerCase() : null;
}

function urlAllowed(url: string, tag: 'a' | 'img'): boolean {
  if (url.trim() === '') return false;
  const scheme = schemeOf(url);
  if (scheme === null) return !url.replace(/[\u0000-\u0020]/g, '').startsWith('//');
  if (!SCHEMES[tag].includes(scheme)) return false;
  return scheme !== 'data' || IMAGE_DATA_URL.test(url.trim());
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'sup', 'sub',
    'kbd', 'abbr', 'b', 'i', 'u', 'span', 'div', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'mark', 'small', 'q', 'cite',
  ],
  allowedAttributes: {
    // `rel` is set by the transform below (whatever the input had), so it must survive filtering.
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['align', 'style', 'colspan', 'rowspan'],
    td: ['align', 'style', 'colspan', 'rowspan'],
    code: ['class'],
    abbr: ['title'],
  },
  // Tables carry their alignment as `text-align`; no other style is allowed anywhere.
  allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
  allowedClasses: { code: [CODE_CLASS] },
  allowedSchemes: SCHEMES.a,
  allowedSchemesByTag: { img: SCHEMES.img },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    img: (tagName, attribs) => {
      // data: URLs only as raster images (an SVG could carry script when opened directly).
      // Attributes keep their order, so sanitising the renderer's output changes nothing.
      const kept = Object.entries(attribs).filter(([name, value]) => name !== 'src' || urlAllowed(value, 'img'));
      return { tagName, attribs: Object.fromEntries(kept) };
    },
  },
};

export type PreviewType = 'markdown' | 'html';

export function sanitize(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

// markdown-it escapes all text and attribute values itself and checks every link and image URL
// with validateLink (no javascript:, vbscript:, file:; data: only for raster images). Its output
// can only carry markup it did not write through raw HTML tokens. So the sanitiser, which costs
// more than the parse, runs only when the source holds raw HTML; the link policy (rel, raster
// data: images) is applied here so both paths give the same result.
const dropUnlessAllowed = (token: Token, attr: 'href' | 'src', tag: 'a' | 'img') => {
  const url = token.attrGet(attr);
  if (url !== null && !urlAllowed(url, tag)) token.attrs = (token.attrs ?? []).filter(([name]) => name !== attr);
};
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  dropUnlessAllowed(tokens[idx]!, 'href', 'a');
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
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
  return html.replace(/^<pre><code class="([^"]*)">/, (whole, cls: string) => (CODE_CLASS.test(cls) ? whole : '<pre><code>'));
};

const hasRawHtml = (tokens: Token[]): boolean =>
  tokens.some((t) => t.type === 'html_block' || t.type === 'html_inline' || (t.children !== null && hasRawHtml(t.children)));

export function renderMarkdown(source: string): string {
  return md.render(source);
}

export function preview(source: string, type: PreviewType = 'markdown'): string {
  if (type === 'html') return sanitize(source);
  const tokens = md.parse(source, {});
  const html = md.renderer.render(tokens, md.options, {});
  return hasRawHtml(tokens) ? sanitize(html) : html;
}
