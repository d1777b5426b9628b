// The preview's allow-list: which elements, attributes, URLs, classes and styles may appear in
// its output. One policy, applied by two writers: the HTML sanitiser (preview-sanitizer.ts, for
// raw HTML) and the markdown renderer's link/image/fence rules (markdown.ts). Nothing here may
// allow an element or attribute that can run script, load a frame or restyle the page.

export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'del',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'sup',
  'sub',
  'kbd',
  'abbr',
  'b',
  'i',
  'u',
  'span',
  'div',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'mark',
  'small',
  'q',
  'cite',
]);

/** Per element; an element not listed keeps no attribute. `a` always gets `rel` (LINK_REL). */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ol: ['start'],
  th: ['align', 'style', 'colspan', 'rowspan'],
  td: ['align', 'style', 'colspan', 'rowspan'],
  code: ['class'],
  abbr: ['title'],
};

/** Every link leaves without the opener (reverse tabnabbing) and without a Referer. */
export const LINK_REL = 'noopener noreferrer';

/** Elements written as `<x />`, without an end tag (the void elements the policy allows). */
export const VOID_TAGS: ReadonlySet<string> = new Set(['img', 'br', 'hr']);

/**
 * Raw-text-like elements whose content is dropped with them (script source, style sheets, form
 * values): the content of any other element that is not allowed is kept as text.
 */
export const CONTENT_DROPPED_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'textarea', 'option', 'xmp']);

/**
 * Attributes that hold a URL: whichever of them an element is allowed, its value must pass the
 * scheme check. (Only href and src are allowed today; the list is complete so that allowing,
 * say, `cite` on blockquote cannot skip the check.)
 */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'src',
  'cite',
  'action',
  'formaction',
  'data',
  'xlink:href',
  'poster',
  'background',
  'ping',
  'longdesc',
  'usemap',
  'codebase',
  'classid',
  'archive',
  'profile',
  'manifest',
  'itemid',
  'dynsrc',
  'lowsrc',
]);

/**
 * Attributes kept with an empty value, and how they are written: `alt=""` (an image with no
 * text alternative) and a bare `align`. Any other allowed attribute with an empty value is
 * dropped (an empty href or src is a link to the page itself).
 */
export const EMPTY_VALUE_KEPT: Readonly<Record<string, string>> = { alt: ' alt=""', align: ' align' };

export const URL_SCHEMES = { a: ['http', 'https', 'mailto', 'tel'], img: ['http', 'https', 'data'] } as const;
const IMAGE_DATA_URL = /^data:image\/(png|gif|jpe?g|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]*$/i;

/** The only classes: a code block's language, as markdown-it writes it. */
export const CODE_CLASS = /^language-[A-Za-z0-9_+-]+$/;

/** The only style: a table cell's alignment, as markdown-it writes it (`text-align:left`). */
export const TABLE_ALIGN_PROPERTY = 'text-align';
export const TABLE_ALIGN_VALUE = /^(left|right|center)$/;
export const STYLED_TAGS: ReadonlySet<string> = new Set(['th', 'td']);

/** The URL's scheme as a browser sees it (it ignores tabs, newlines and leading controls), or null. */
export function schemeOf(url: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url.replace(/[\u0000-\u0020]/g, ''));
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * The renderer's (and the img element's) URL rule: a scheme of URL_SCHEMES or none, not
 * protocol-relative, not blank; data: only as a base64 raster image (an SVG could carry script
 * when opened on its own).
 */
export function urlAllowed(url: string, tag: 'a' | 'img'): boolean {
  if (url.trim() === '') return false;
  const scheme = schemeOf(url);
  if (scheme === null) return !url.replace(/[\u0000-\u0020]/g, '').startsWith('//');
  if (!(URL_SCHEMES[tag] as readonly string[]).includes(scheme)) return false;
  return scheme !== 'data' || IMAGE_DATA_URL.test(url.trim());
}

/**
 * The sanitiser's URL rule for any URL attribute (as sanitize-html and its `launder` helper
 * define it, so the two agree): after removing every character ≤ U+0020 and every `<!-- -->`
 * comment, the scheme must be one allowed for the element (img: URL_SCHEMES.img, any other:
 * URL_SCHEMES.a); a URL without a scheme must not start with two slashes or backslashes.
 */
export function urlAttributeAllowed(tag: string, url: string): boolean {
  let cleaned = url.replace(/[\u0000-\u0020]+/g, '');
  for (let start = cleaned.indexOf('<!--'); start !== -1; start = cleaned.indexOf('<!--')) {
    const end = cleaned.indexOf('-->', start + 4);
    if (end === -1) break;
    cleaned = cleaned.slice(0, start) + cleaned.slice(end + 3);
  }
  const m = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(cleaned);
  if (!m) return !/^[/\\]{2}/.test(cleaned);
  const schemes: readonly string[] = tag === 'img' ? URL_SCHEMES.img : URL_SCHEMES.a;
  return schemes.includes(m[1]!.toLowerCase());
}
