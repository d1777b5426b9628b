// The preview pipeline (src/system/markdown.ts) against the CommonMark spec test suite
// (`commonmark-spec` npm package, 652 examples).
//
// For every example the reference output `expected` is put through the sanitiser on its own:
//   - if `sanitize(expected)` is `expected` (under the serialisation normalisation below), the
//     sanitiser has nothing to object to, and `preview(markdown)` must be exactly `expected`;
//   - otherwise the example is "changed by sanitisation": it must fall into one of the known
//     categories below (each says WHY the sanitiser changes it), nothing may be "unexplained", and
//     `preview(markdown)` must still be exactly what sanitising the reference output gives.
// The number of passing examples has a floor, so a change that breaks more examples is caught.
import { createRequire } from 'node:module';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { preview, sanitize } from '../../src/system/markdown.js';

interface SpecExample {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

const require = createRequire(import.meta.url);
// The spec writes tabs as '→' in both the markdown and the HTML; every CommonMark test runner
// (spec_tests.py, commonmark.js, markdown-it) turns them back into tabs.
const EXAMPLES: SpecExample[] = (require('commonmark-spec') as { tests: SpecExample[] }).tests.map((t) => ({
  ...t,
  markdown: t.markdown.replace(/→/g, '\t'),
  html: t.html.replace(/→/g, '\t'),
}));

/**
 * Measured with this pipeline (markdown-it 14.3 and the preview's sanitiser, which writes what
 * sanitize-html 2.17 wrote under the same policy): 480 of 652 pass.
 */
const PASSING_FLOOR = 480;

// ---------------------------------------------------------------------------------------------
// Serialisation normalisation
//
// Two serialisers are compared here: markdown-it (and the spec's hand-written reference output)
// and the sanitiser's (src/system/preview-sanitizer.ts). They write the same DOM differently. The
// normalisation below removes only differences that no HTML parser can see — the DOM built from
// both sides is the same:
//   1. `"` in text content: markdown-it writes `&quot;`, the sanitiser writes a bare `"`. Outside
//      a tag the two are the same character (only inside attribute values would `"` matter, and
//      attribute values are handled by 3.).
//   2. void elements (br, hr, img, …): `<br />`, `<br/>` and `<br>` are the same; the slash on
//      a void element is ignored by the HTML parser.
//   3. inside a start tag: attribute order (irrelevant in HTML; the sanitiser appends `rel` to
//      links), the quoting style and the character-reference spelling of attribute
//      values (`href="&ouml;"` and `href="ö"` are the same value), and tag/attribute name case
//      (`<DIV CLASS>` is `<div class>`). Each attribute value is decoded and written back in one
//      canonical form, so two different values never become equal.
//   4. `<blockquote>\n</blockquote>` is written `<blockquote></blockquote>` by markdown-it; the
//      same normalisation markdown-it's own CommonMark test uses (test/commonmark.mjs). The
//      newline is inter-element whitespace in an empty block: not rendered, no content.
// Nothing else is touched: text is compared byte for byte (apart from 1.), tags that do not parse
// as a start tag stay as they are, and a missing or extra element, attribute or character shows.

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

// One attribute, HTML syntax: a name, and optionally `=` with a double-, single- or unquoted value.
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y;
const START_TAG = /<([A-Za-z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
const TAG_OR_MARKUP = new RegExp(
  [
    /<!--[\s\S]*?-->/.source,
    /<[A-Za-z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/.source,
    /<\/[A-Za-z][^\s>]*\s*>/.source,
    /<[!?][^>]*>/.source,
  ].join('|'),
  'g',
);

const entityDecoder = new MarkdownIt().utils;
/** Decodes character references (named, decimal, hex) and nothing else (no backslash escapes). */
const decodeReferences = (value: string) =>
  value.replace(/&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (ref) =>
    entityDecoder.unescapeAll(ref),
  );
const encodeAttributeValue = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface StartTag {
  name: string;
  attributes: Array<[name: string, value: string | undefined]>;
}

function parseAttributes(source: string): StartTag['attributes'] {
  const attributes: StartTag['attributes'] = [];
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(source); m; m = ATTRIBUTE.exec(source)) {
    const raw = m[2] ?? m[3] ?? m[4];
    attributes.push([m[1]!.toLowerCase(), raw === undefined ? undefined : decodeReferences(raw)]);
  }
  return attributes;
}

function writeStartTag(tag: StartTag): string {
  const attributes = [...tag.attributes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => (value === undefined ? ` ${name}` : ` ${name}="${encodeAttributeValue(value)}"`));
  return `<${tag.name}${attributes.join('')}>`;
}

/** Rewrites every start tag through `edit` (used by the classification below), then normalises. */
function normalise(html: string, edit: (tag: StartTag) => StartTag = (tag) => tag): string {
  const withTags = html
    .replace(/<blockquote>\n<\/blockquote>/g, '<blockquote></blockquote>')
    .replace(START_TAG, (_, name: string, attributes: string) =>
      writeStartTag(edit({ name: name.toLowerCase(), attributes: parseAttributes(attributes) })),
    );
  // Text between tags: `&quot;` → `"` (1.). End tags: name case.
  let out = '';
  let last = 0;
  for (const m of withTags.matchAll(TAG_OR_MARKUP)) {
    out += withTags.slice(last, m.index).replace(/&quot;/g, '"');
    out += m[0].startsWith('</') ? m[0].toLowerCase().replace(/\s+>$/, '>') : m[0];
    last = m.index + m[0].length;
  }
  return out + withTags.slice(last).replace(/&quot;/g, '"');
}

// ---------------------------------------------------------------------------------------------
// Why the sanitiser changes an example: the categories
//
// The sanitiser's policy (src/system/markdown.ts), restated here as the model the differences are
// checked against.
const ALLOWED_TAGS = new Set([
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
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ol: ['start'],
  th: ['align', 'style', 'colspan', 'rowspan'],
  td: ['align', 'style', 'colspan', 'rowspan'],
  code: ['class'],
  abbr: ['title'],
};
const URL_ATTRIBUTES: Record<string, string> = { a: 'href', img: 'src' };
const ALLOWED_SCHEMES: Record<string, string[]> = {
  a: ['http', 'https', 'mailto', 'tel'],
  img: ['http', 'https', 'data'],
};
const REL = 'noopener noreferrer';

const CATEGORIES = {
  // Attribute-level: the difference is reproduced exactly (see classify()).
  'link-rel': 'every link gains rel="noopener noreferrer" (reverse tabnabbing, no Referer)',
  'attribute-not-allowed':
    'attributes outside the per-tag allow-list (id, class on div/i, pre language, custom attributes) are dropped',
  'code-class-not-allowed':
    'a code class that is not language-[A-Za-z0-9_+-]+ (e.g. "language-föö", "language-;") is dropped',
  'url-scheme-not-allowed':
    'URLs with a scheme outside http/https/mailto/tel (img: also data:) are dropped: irc:, a+b+c:, ' +
    'made-up-scheme:, localhost:',
  'empty-url': 'an empty href/src is dropped (the element stays, without the attribute)',
  // Structural: raw HTML the sanitiser rebuilds; detected on the reference output.
  'raw-text-element-removed': 'raw <script>, <style> and <textarea> elements are dropped with their content',
  'element-not-allowed':
    'raw HTML elements outside the allow-list (custom tags, ins, bab, responsive-image, …) are dropped, ' +
    'their text kept',
  'comment-or-declaration':
    'HTML comments, processing instructions (<?php ?>), declarations (<!DOCTYPE>, <!ELEMENT>) and CDATA ' +
    'sections are dropped',
  'unbalanced-markup':
    'unclosed, stray or misnested raw tags are repaired: missing end tags added, stray end tags dropped',
  'unterminated-tag':
    'a raw start tag never closed by ">" (to the end of the input) is dropped, as an HTML parser does at end of file',
} as const;
type Category = keyof typeof CATEGORIES | 'unexplained';

interface Classification {
  categories: Category[];
  /** true when the attribute-level categories reproduce the sanitised output exactly */
  exact: boolean;
}

const schemeOf = (url: string) => /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url.trim())?.[1]?.toLowerCase();

/**
 * Why `sanitized` (= sanitize(expected)) differs from `expected`. Attribute-level differences are
 * explained by replaying the policy on `expected` (and undoing `rel` on `sanitized`): if the two
 * are then equal, those categories are the whole explanation. What remains must be raw HTML that
 * the sanitiser has to rebuild, detected on `expected` by the structural categories; an example
 * with neither is "unexplained".
 */
function classify(expected: string, sanitized: string): Classification {
  const found = new Set<Category>();
  const policy = (tag: StartTag): StartTag => {
    if (!ALLOWED_TAGS.has(tag.name)) return tag; // structural; the element goes as a whole
    const allowed = ALLOWED_ATTRIBUTES[tag.name] ?? [];
    const refuse = (category: Category): false => {
      found.add(category);
      return false;
    };
    const attributes = tag.attributes.filter(([name, value]) => {
      if (!allowed.includes(name)) return refuse('attribute-not-allowed');
      if (tag.name === 'code' && name === 'class' && !/^language-[A-Za-z0-9_+-]+$/.test(value ?? '')) {
        return refuse('code-class-not-allowed');
      }
      if (URL_ATTRIBUTES[tag.name] === name) {
        if (!value) return refuse('empty-url');
        const scheme = schemeOf(value);
        if (scheme !== undefined && !ALLOWED_SCHEMES[tag.name]!.includes(scheme))
          return refuse('url-scheme-not-allowed');
      }
      return true;
    });
    return { ...tag, attributes };
  };
  const undoRel = (tag: StartTag): StartTag => {
    if (tag.name !== 'a') return tag;
    const attributes = tag.attributes.filter(([name, value]) => !(name === 'rel' && value === REL));
    if (attributes.length !== tag.attributes.length) found.add('link-rel');
    return { ...tag, attributes };
  };
  const exact = normalise(expected, policy) === normalise(sanitized, undoRel);
  if (!exact) {
    const tags = [...expected.matchAll(/<(\/?)([A-Za-z][^\s/>]*)([^>]*)>/g)].map((m) => ({
      end: m[1] === '/',
      name: m[2]!.toLowerCase(),
      selfClosingSyntax: /\/\s*$/.test(m[3]!),
    }));
    if (tags.some((t) => ['script', 'style', 'textarea'].includes(t.name))) found.add('raw-text-element-removed');
    if (tags.some((t) => !ALLOWED_TAGS.has(t.name) && !['script', 'style', 'textarea'].includes(t.name)))
      found.add('element-not-allowed');
    if (/<!--|<\?|<![A-Za-z[]/.test(expected)) found.add('comment-or-declaration');
    if (/<[A-Za-z][^>]*$/.test(expected)) found.add('unterminated-tag');
    // Element nesting of the allowed (non-void) elements, as written: every end tag must close
    // the innermost open element, and nothing may stay open. (`<a/>` is a start tag in HTML.)
    const open: string[] = [];
    let balanced = true;
    for (const t of tags) {
      if (!ALLOWED_TAGS.has(t.name) || VOID_ELEMENTS.has(t.name)) continue;
      if (!t.end) open.push(t.name);
      else if (open.at(-1) === t.name) open.pop();
      else balanced = false;
    }
    if (!balanced || open.length > 0) found.add('unbalanced-markup');
    const structural = [
      'raw-text-element-removed',
      'element-not-allowed',
      'comment-or-declaration',
      'unterminated-tag',
      'unbalanced-markup',
    ];
    if (![...found].some((c) => structural.includes(c))) found.add('unexplained');
  }
  return { categories: [...found], exact };
}

// ---------------------------------------------------------------------------------------------

describe('preview: CommonMark spec examples', () => {
  const passing: SpecExample[] = [];
  const changed: Array<SpecExample & Classification & { sanitized: string }> = [];
  for (const example of EXAMPLES) {
    const sanitized = sanitize(example.html);
    if (normalise(sanitized) === normalise(example.html)) passing.push(example);
    else changed.push({ ...example, sanitized, ...classify(example.html, sanitized) });
  }

  it('reads the whole suite', () => {
    expect(EXAMPLES).toHaveLength(652);
    expect(new Set(EXAMPLES.map((e) => e.number)).size).toBe(652);
  });

  it('renders every example whose reference output survives sanitisation exactly as the spec says', () => {
    const failures = passing
      .map((e) => ({ e, got: preview(e.markdown) }))
      .filter(({ e, got }) => normalise(got) !== normalise(e.html))
      .map(
        ({ e, got }) =>
          `#${e.number} (${e.section}) ${JSON.stringify(e.markdown)}\n  ` +
          `expected ${JSON.stringify(e.html)}\n  got      ${JSON.stringify(got)}`,
      );
    expect(failures, failures.join('\n')).toEqual([]);
    expect(passing.length).toBeGreaterThanOrEqual(PASSING_FLOOR);
  });

  it('explains every example the sanitiser changes, and renders it as the sanitised reference', () => {
    const counts = new Map<Category, number>();
    for (const e of changed) for (const c of e.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
    const summary = [
      `CommonMark spec ${EXAMPLES.length} examples: ${passing.length} pass unchanged, ${changed.length} ` +
        `changed by sanitisation ` +
        `(${changed.filter((e) => e.exact).length} reproduced exactly by the attribute-level categories)`,
      ...[...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `  ${String(n).padStart(4)}  ${c}: ${c === 'unexplained' ? '?' : CATEGORIES[c]}`),
    ];
    console.log(summary.join('\n'));

    const unexplained = changed
      .filter((e) => e.categories.includes('unexplained'))
      .map(
        (e) =>
          `#${e.number} (${e.section})\n  expected  ${JSON.stringify(e.html)}\n  ` +
          `sanitised ${JSON.stringify(e.sanitized)}`,
      );
    expect(unexplained, `changed by sanitisation for no known reason:\n${unexplained.join('\n')}`).toEqual([]);
    for (const e of changed) expect(e.categories.length, `#${e.number}`).toBeGreaterThan(0);
    // Markdown without a `<` has no raw HTML: nothing structural to repair, so the attribute-level
    // categories must reproduce the sanitised output exactly.
    const inexactWithoutRawHtml = changed.filter((e) => !e.exact && !e.markdown.includes('<'));
    expect(inexactWithoutRawHtml.map((e) => e.number)).toEqual([]);

    // The preview of the markdown is the sanitised reference output: the sanitiser is the only
    // reason these examples differ from the spec.
    const mismatches = changed
      .map((e) => ({ e, got: preview(e.markdown) }))
      .filter(({ e, got }) => normalise(got) !== normalise(e.sanitized))
      .map(
        ({ e, got }) =>
          `#${e.number} (${e.section})\n  sanitised reference ${JSON.stringify(e.sanitized)}\n  ` +
          `preview             ${JSON.stringify(got)}`,
      );
    expect(mismatches, mismatches.join('\n')).toEqual([]);
  });

  it('the categories cover what the policy is about', () => {
    const seen = new Set(changed.flatMap((e) => e.categories));
    // Links gaining rel and raw script/style being dropped are the two a reader most expects.
    expect(seen).toContain('link-rel');
    expect(seen).toContain('raw-text-element-removed');
    expect(seen).not.toContain('unexplained');
    // A link-only example is changed by nothing but rel.
    const example483 = changed.find((e) => e.number === 483);
    expect(example483?.categories).toEqual(['link-rel']);
    expect(example483?.exact).toBe(true);
  });
});
