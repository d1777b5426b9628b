// Markdown (CommonMark + GitHub tables and strikethrough) to HTML, and an allow-list HTML
// sanitiser applied to every output: nothing that can run script, load a frame or restyle the
// page survives, whatever the input.
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const md = new MarkdownIt('commonmark').enable(['table', 'strikethrough']);

const IMAGE_DATA_URL = /^data:image\/(png|gif|jpe?g|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]*$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'sup', 'sub',
    'kbd', 'abbr', 'b', 'i', 'u', 'span', 'div', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'mark', 'small', 'q', 'cite',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['align', 'style', 'colspan', 'rowspan'],
    td: ['align', 'style', 'colspan', 'rowspan'],
    code: ['class'],
    abbr: ['title'],
  },
  // Tables carry their alignment as `text-align`; no other style is allowed anywhere.
  allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
  allowedClasses: { code: [/^language-[A-Za-z0-9_+-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      // data: URLs only as raster images (an SVG could carry script when opened directly).
      // "data:" is looked for with every control character and space removed first: the URL
      // parser drops tabs and newlines anywhere and controls/spaces at the ends, so
      // "da\tta:image/svg+xml,…" and "\x01data:text/html,…" are data: URLs to the browser.
      const isData = src !== undefined && /^data:/i.test(src.replace(/[\u0000-\u0020]+/g, ''));
      const keep = src !== undefined && (!isData || IMAGE_DATA_URL.test(src.trim()));
      return { tagName, attribs: keep ? { ...rest, src: src! } : rest };
    },
  },
};
// `rel` is added by the transform after filtering, so it must be allowed on the output side.
(OPTIONS.allowedAttributes as Record<string, string[]>).a!.push('rel');

export type PreviewType = 'markdown' | 'html';

export function sanitize(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

export function renderMarkdown(source: string): string {
  return md.render(source);
}

export function preview(source: string, type: PreviewType = 'markdown'): string {
  return sanitize(type === 'markdown' ? renderMarkdown(source) : source);
}
