// The preview's own HTML sanitiser (src/system/preview-sanitizer.ts) and its parser
// (src/system/preview-html-events.ts), against the two references they replace:
//   - sanitize-html under the same policy (src/system/preview-policy-reference.ts): the same
//     output on generated HTML; where a style attribute holds CSS the sanitiser does not model,
//     it may only be stricter (drop the style);
//   - htmlparser2's Parser: the same start/text/end events;
// plus what the output must be whatever the input: allow-listed, balanced, escaped so the browser
// decodes exactly the checked values, with no URL attribute of another scheme.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import sanitizeHtmlReference from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { parseHtmlEvents } from '../../src/system/preview-html-events.js';
import { sanitizeHtmlReferenceOptions } from '../../src/system/preview-policy-reference.js';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_TAGS,
  URL_ATTRIBUTES,
  urlAllowed,
  urlAttributeAllowed,
} from '../../src/system/preview-policy.js';
import { HtmlSanitizerStream, sanitizeHtml } from '../../src/system/preview-sanitizer.js';
import { DANGEROUS_URLS, XSS_VECTORS } from '../fixtures/xss-vectors.js';

const REFERENCE_OPTIONS = sanitizeHtmlReferenceOptions();
const reference = (html: string) => sanitizeHtmlReference(html, REFERENCE_OPTIONS);

// ---------------------------------------------------------------------------------------------
// Generated HTML: nested elements (allowed, dropped, raw-text, foreign, void, mixed case) with
// attributes of every kind the policy looks at, character references, and broken markup.

const TAGS = [
  ...ALLOWED_TAGS,
  'script',
  'style',
  'textarea',
  'option',
  'optgroup',
  'select',
  'xmp',
  'title',
  'iframe',
  'object',
  'svg',
  'math',
  'mtext',
  'foreignObject',
  'desc',
  'annotation-xml',
  'mi',
  'input',
  'button',
  'form',
  'body',
  'head',
  'link',
  'meta',
  'base',
  'wbr',
  'area',
  'param',
  'details',
  'x-custom',
  'noscript',
  'plaintext',
  'template',
  'rt',
  'rp',
  'ruby',
  'DIV',
  'A',
  'Img',
  'sCrIpT',
  'TD',
];
const URLS = [
  ...DANGEROUS_URLS,
  'https://e.example/a?b=1&c=2',
  'http://x',
  '/rel',
  'rel',
  '#f',
  '//evil.example',
  '\\\\evil',
  '/\\evil',
  ' //evil',
  'mailto:a@b.c',
  'tel:+1',
  'data:image/png;base64,AAAA',
  'data:image/svg+xml;base64,AAAA',
  'irc://x',
  'made-up:x',
  '',
  ' ',
  'java<!-- -->script:alert(1)',
  'https://e.example/"><script>',
  'HTTPS://E.EXAMPLE',
];
const REFERENCES = [
  '&amp;',
  '&lt;',
  '&gt;',
  '&quot;',
  '&#39;',
  '&#x6A;',
  '&#106',
  '&Tab;',
  '&NewLine;',
  '&nbsp;',
  '&notin;',
  '&not',
  '&#0;',
  '&#x110000;',
  '&colon;',
  '&bogus;',
  '&',
];
/** Pieces joined: an arbitrary string of the given parts. */
const joined = (part: fc.Arbitrary<string>, maxLength: number) =>
  fc.array(part, { maxLength }).map((xs) => xs.join(''));
const garbage = joined(
  fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...REFERENCES, '"', "'", '<', '>', '`', '=', '/', ' ')),
  4,
);
/** CSS the sanitiser reads (it must agree with sanitize-html's postcss exactly on these). */
const modelledStyle = joined(
  fc.constantFrom(
    'text-align',
    'TEXT-ALIGN',
    'color',
    'x',
    ':',
    ' ',
    '\t',
    '\n',
    ';',
    'left',
    'right',
    'center',
    'LEFT',
    'red',
    '!important',
    '! important',
    '!IMPORTANT',
    '!',
    'important',
    '\u00a0',
  ),
  8,
);
/** Any CSS: comments, strings, escapes, brackets (the sanitiser drops such a style whole). */
const anyStyle = joined(
  fc.oneof(
    modelledStyle,
    fc.constantFrom(
      '/*',
      '*/',
      '"',
      "'",
      '(',
      ')',
      '{',
      '}',
      '\\',
      '@media',
      'url(',
      'expression(',
      'background:url(javascript:alert(1))',
      '[',
      ']',
      '<',
      '>',
    ),
  ),
  5,
);
const classes = joined(
  fc.constantFrom('language-js', 'language-föö', 'language-c++', 'language-', 'x', ' ', '\t', 'language-a_b', '\u00a0'),
  4,
);

/** `name`, `name=value` with the value quoted (or not) and encoded as that quoting needs. */
function writeAttribute(name: string, value: string | null, quoting: '"' | "'" | ''): string {
  if (value === null) return name;
  if (quoting === "'") return `${name}='${value.replace(/'/g, '&#39;')}'`;
  if (quoting === '' && /^[^\s"'=<>`]+$/.test(value)) return `${name}=${value}`;
  return `${name}="${value.replace(/"/g, '&quot;')}"`;
}

function attributeArbitrary(style: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const valued = fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'href',
        'src',
        'HREF',
        'Src',
        'cite',
        'action',
        'formaction',
        'xlink:href',
        'data',
        'poster',
        'background',
        'srcset',
      ),
      fc.constantFrom(...URLS),
    ),
    fc.tuple(fc.constantFrom('style', 'STYLE'), style),
    fc.tuple(fc.constant('class'), classes),
    fc.tuple(
      fc.constantFrom(
        'title',
        'alt',
        'rel',
        'width',
        'height',
        'start',
        'align',
        'colspan',
        'rowspan',
        'onclick',
        'onerror',
        'id',
        'name',
        'x',
        'title',
      ),
      garbage,
    ),
  );
  return fc
    .tuple(valued, fc.boolean(), fc.constantFrom<'"' | "'" | ''>('"', "'", ''), fc.constantFrom(' ', '\n', '/', '  '))
    .map(
      ([[name, value], hasValue, quoting, separator]) =>
        separator + writeAttribute(name, hasValue || value === '' ? value : null, quoting),
    );
}

/** Markup that is not an element: comments, CDATA, declarations, stray and cut-off tags. */
const RAW = [
  '<!-- c -->',
  '<!--',
  '-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<?php x ?>',
  '<!DOCTYPE html>',
  '</p>',
  '</br>',
  '</div>',
  '</ td>',
  '</svg>',
  '</math>',
  '</mtext>',
  '<',
  '</',
  '<a',
  '<img src="x',
  '&',
  '\u0000',
  '/>',
  '<p/>',
  '<svg/>',
  '<br/>',
  '<td>',
  '<tr>',
  '<li>',
];

function htmlArbitrary(style: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const attribute = attributeArbitrary(style);
  const { node } = fc.letrec<{ node: string; element: string }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, garbage, fc.constantFrom(...RAW), tie('element')),
    element: fc
      .tuple(
        fc.constantFrom(...TAGS),
        fc.array(attribute, { maxLength: 4 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.constantFrom('close', 'close', 'close', 'none', 'self', 'other'),
        fc.constantFrom(...TAGS),
      )
      .map(([tag, attributes, children, end, other]) => {
        const start = `<${tag}${attributes.join('')}${end === 'self' ? '/' : ''}>`;
        const close = end === 'close' ? `</${tag}>` : end === 'other' ? `</${other}>` : '';
        return start + children.join('') + close;
      }),
  }));
  return fc.array(node, { maxLength: 6 }).map((nodes) => nodes.join(''));
}

const modelledHtml = htmlArbitrary(modelledStyle);
const anyHtml = htmlArbitrary(anyStyle);

/**
 * Tag soup: start and end tags in any order, hundreds of them, so that elements nest deeper than
 * the parser's search limit (64) and end tags often name an element that is not innermost or not
 * open at all.
 */
const tagSoup = fc
  .array(
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .constantFrom('b', 'i', 'div', 'span', 'p', 'li', 'td', 'tr', 'a', 'svg', 'mtext', 'option', 'x')
          .map((t) => `<${t}>`),
      },
      {
        weight: 3,
        arbitrary: fc
          .constantFrom('b', 'i', 'div', 'span', 'p', 'li', 'td', 'tr', 'a', 'svg', 'mtext', 'option', 'x', 'br', 'B')
          .map((t) => `</${t}>`),
      },
      { weight: 1, arbitrary: fc.constantFrom('t', '<br/>', '<img src=x>', '&amp;', '<svg/>', '<a/>') },
    ),
    { maxLength: 300 },
  )
  .chain((soup) =>
    fc
      .tuple(fc.integer({ min: 0, max: 120 }), fc.constantFrom('span', 'b', 'div'))
      .map(([depth, tag]) => `<${tag}>`.repeat(depth) + soup.join('')),
  );

// ---------------------------------------------------------------------------------------------
// Reading the output (which only ever holds &amp; &lt; &gt; &quot; references)

const OUTPUT_REFERENCE = /&(amp|lt|gt|quot);/g;
const decodeOutput = (s: string) =>
  s.replace(OUTPUT_REFERENCE, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name]!);

interface OutputTag {
  end: boolean;
  name: string;
  attributes: Array<[string, string | undefined]>;
  selfClosing: boolean;
}

/** The output's tags, read strictly: markup not in the writer's one form is a problem. */
function readOutput(html: string, problems: string[]): OutputTag[] {
  const tags: OutputTag[] = [];
  const markup = /<(\/?)([a-z0-9]+)((?: [a-z:-]+(?:="[^"<>]*")?)*)( \/)?>/y;
  let last = 0;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', last)) {
    if (html.slice(last, i).includes('>')) problems.push('a ">" in text');
    markup.lastIndex = i;
    const m = markup.exec(html);
    if (m === null) {
      problems.push(`unreadable markup at ${JSON.stringify(html.slice(i, i + 40))}`);
      return tags;
    }
    const attributes = [...m[3]!.matchAll(/ ([a-z:-]+)(?:="([^"]*)")?/g)].map(
      ([, name, value]): [string, string | undefined] => [name!, value === undefined ? undefined : decodeOutput(value)],
    );
    tags.push({ end: m[1] === '/', name: m[2]!, attributes, selfClosing: m[4] !== undefined });
    last = markup.lastIndex;
  }
  if (html.slice(last).includes('>')) problems.push('a ">" in text');
  return tags;
}

const BROWSER_SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const RASTER_DATA_URL = /^data:image\/(png|gif|jpe?g|webp|avif|bmp);base64,/i;
const TABLE_ALIGN_STYLE =
  /^text-align:(left|right|center)( !important)?(;text-align:(left|right|center)( !important)?)*$/;

/** What is wrong with a sanitiser output, by what it must be whatever the input (see the file comment). */
function safetyProblems(html: string): string[] {
  const problems: string[] = [];
  // Every reference is one of the four the writer uses: the browser decodes what was checked.
  if (html.replace(OUTPUT_REFERENCE, '').includes('&'))
    problems.push('a character reference other than &amp; &lt; &gt; &quot;');
  const open: string[] = [];
  for (const tag of readOutput(html, problems)) {
    if (!ALLOWED_TAGS.has(tag.name)) problems.push(`element ${tag.name}`);
    if (tag.end) {
      if (open.pop() !== tag.name) problems.push(`</${tag.name}> does not close the innermost element`);
      continue;
    }
    if (tag.selfClosing !== ['img', 'br', 'hr'].includes(tag.name))
      problems.push(`<${tag.name}> written ${tag.selfClosing ? 'with' : 'without'} " />"`);
    if (!tag.selfClosing) open.push(tag.name);
    for (const [name, value] of tag.attributes) {
      if (!(ALLOWED_ATTRIBUTES[tag.name] ?? []).includes(name)) problems.push(`attribute ${name} on ${tag.name}`);
      if (name === 'style' && !TABLE_ALIGN_STYLE.test(value ?? '')) problems.push(`style ${JSON.stringify(value)}`);
      if (URL_ATTRIBUTES.has(name) && value !== undefined) {
        // As the browser resolves it (WHATWG URL parser: tabs, newlines, controls stripped).
        let url: URL | null = null;
        try {
          url = new URL(value, 'http://page.test/dir/');
        } catch {
          // not a URL: nothing to load
        }
        if (url === null) continue;
        const rasterImage = tag.name === 'img' && name === 'src' && RASTER_DATA_URL.test(value.trim());
        if (!BROWSER_SAFE_PROTOCOLS.has(url.protocol) && !rasterImage)
          problems.push(`${url.protocol} URL in ${name}=${JSON.stringify(value)}`);
        const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(value.replace(/[\u0000-\u0020]/g, ''));
        if (!hasScheme && url.host !== 'page.test')
          problems.push(`protocol-relative URL in ${name}=${JSON.stringify(value)}`);
      }
    }
    const rel = tag.attributes.filter(([name]) => name === 'rel');
    if (tag.name === 'a' && (rel.length !== 1 || rel[0]![1] !== 'noopener noreferrer'))
      problems.push('a link without rel="noopener noreferrer"');
  }
  if (open.length > 0) problems.push(`elements left open: ${open.join(', ')}`);
  return problems;
}

const expectSafeOutput = (html: string) => expect(safetyProblems(html), html).toEqual([]);

/** `mine` is `ref` with zero or more of ref's style attributes left out. */
function isReferenceWithStylesDropped(mine: string, ref: string): boolean {
  let i = 0;
  let j = 0;
  while (i < mine.length || j < ref.length) {
    if (i < mine.length && mine[i] === ref[j]) {
      i++;
      j++;
    } else if (ref.startsWith(' style="', j)) {
      j = ref.indexOf('"', j + 8) + 1;
    } else return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------

describe('preview sanitiser against sanitize-html (same policy)', () => {
  it('writes the same output on generated HTML', () => {
    fc.assert(
      fc.property(modelledHtml, (html) => {
        expect(sanitizeHtml(html)).toBe(reference(html));
      }),
      { numRuns: 3000 },
    );
  });

  it('with any CSS in styles, is the same or stricter: only style attributes may be missing', () => {
    fc.assert(
      fc.property(anyHtml, (html) => {
        const mine = sanitizeHtml(html);
        const ref = reference(html);
        expect(
          isReferenceWithStylesDropped(mine, ref),
          `mine ${JSON.stringify(mine)}\nref  ${JSON.stringify(ref)}`,
        ).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('writes the same output for every XSS vector, but for styles it cannot read plainly', () => {
    const different = XSS_VECTORS.filter((v) => sanitizeHtml(v) !== reference(v));
    for (const v of different) {
      // Only vectors with a th/td style holding CSS the sanitiser does not model (url(), comments,
      // braces, …), which it drops whole where sanitize-html kept the text-align part.
      expect(v, v).toMatch(/<t[dh] style="[^"]*[/\\(){}]/);
      expect(isReferenceWithStylesDropped(sanitizeHtml(v), reference(v)), v).toBe(true);
    }
    expect(different.length).toBeGreaterThan(0);
  });
});

describe('preview HTML events against htmlparser2 Parser', () => {
  type Event = ['start', string, Array<[string, string]>] | ['text', string] | ['end', string];
  const push = (events: Event[], event: Event) => {
    const last = events.at(-1);
    if (event[0] === 'text' && last?.[0] === 'text') last[1] += event[1];
    else events.push(event);
  };
  const sorted = (entries: Array<[string, string]>) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const ours = (html: string): Event[] => {
    const events: Event[] = [];
    parseHtmlEvents(html, {
      wantsAttributes: () => true,
      start: (tag, attributes) => push(events, ['start', tag, sorted([...(attributes ?? [])])]),
      text: (text) => push(events, ['text', text]),
      end: (tag) => push(events, ['end', tag]),
    });
    return events;
  };
  const htmlparser2 = (html: string): Event[] => {
    const events: Event[] = [];
    const parser = new Parser(
      {
        onopentag: (tag, attributes) => push(events, ['start', tag, sorted(Object.entries(attributes))]),
        ontext: (text) => push(events, ['text', text]),
        onclosetag: (tag) => push(events, ['end', tag]),
      },
      { decodeEntities: true },
    );
    parser.write(html);
    parser.end();
    return events;
  };

  it('gives the same events on generated HTML', () => {
    fc.assert(
      fc.property(anyHtml, (html) => {
        expect(ours(html)).toEqual(htmlparser2(html));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same events on deep tag soup (past the search limit), and the same output as sanitize-html', () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        expect(ours(html)).toEqual(htmlparser2(html));
        expect(sanitizeHtml(html)).toBe(reference(html));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same events for the XSS corpus and the CommonMark reference outputs', () => {
    const require = createRequire(import.meta.url);
    const spec = (require('commonmark-spec') as { tests: Array<{ html: string }> }).tests.map((t) => t.html);
    for (const html of [...XSS_VECTORS, ...spec]) expect(ours(html), html).toEqual(htmlparser2(html));
  });

  it('ignores an end tag for an element that is not open, without searching: no quadratic time', () => {
    const html = '<b>'.repeat(150_000) + '</i>'.repeat(150_000);
    const started = performance.now();
    const out = sanitizeHtml(html);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(out).toBe('<b>'.repeat(150_000) + '</b>'.repeat(150_000));
  });
});

describe('preview sanitiser output', () => {
  it('is allow-listed, balanced, escaped, and links only to allowed schemes, whatever the input', () => {
    fc.assert(
      fc.property(anyHtml, (html) => {
        expectSafeOutput(sanitizeHtml(html));
      }),
      { numRuns: 2000 },
    );
    for (const vector of XSS_VECTORS) expectSafeOutput(sanitizeHtml(vector));
  });

  // Every dangerous spelling, entity-encoded in several ways, in every URL attribute, on every
  // allowed element: nothing leaves that a browser would resolve to another scheme.
  it('drops entity-encoded dangerous schemes in every URL attribute of every allowed element', () => {
    const encodings: Array<(url: string) => string> = [
      (u) => u.replace(/&/g, '&amp;').replace(/"/g, '&quot;'),
      (u) => u, // the fixtures' own spellings (&#106;avascript:, &Tab;, …)
      (u) => [...u].map((c) => `&#${c.codePointAt(0)};`).join(''),
      (u) => [...u].map((c) => `&#x${c.codePointAt(0)!.toString(16)}`).join(''), // hex, no semicolons
      (u) => u.replace(/:/g, '&colon;').replace(/t/g, '&#x74;'),
      (u) => u.replace(/a/g, '&Tab;a').replace(/s/g, '&NewLine;s'),
    ];
    const problems: string[] = [];
    let checked = 0;
    for (const tag of ALLOWED_TAGS) {
      for (const attribute of URL_ATTRIBUTES) {
        for (const url of DANGEROUS_URLS) {
          for (const encode of encodings) {
            const html = `<${tag} ${attribute}="${encode(url).replace(/"/g, '&quot;')}">x</${tag}>`;
            const out = sanitizeHtml(html);
            for (const problem of safetyProblems(out)) problems.push(`${html} -> ${out}: ${problem}`);
            checked++;
          }
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(checked).toBe(ALLOWED_TAGS.size * URL_ATTRIBUTES.size * DANGEROUS_URLS.length * encodings.length);
  });

  it('keeps safe URLs, decoded and written back with only &amp; &lt; &gt; &quot;', () => {
    expect(sanitizeHtml('<a href="&#104;ttps://e.example/?a=1&amp;b=2&quot;">x</a>')).toBe(
      '<a href="https://e.example/?a=1&amp;b=2&quot;" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href=/rel?x=&lt;>x</a>')).toBe('<a href="/rel?x=&lt;" rel="noopener noreferrer">x</a>');
    expect(sanitizeHtml('<img src="data:image/png;base64,AAAA" alt="">')).toBe(
      '<img src="data:image/png;base64,AAAA" alt="" />',
    );
    expect(sanitizeHtml('<img src="data:image/svg+xml;base64,AAAA" alt="x">')).toBe('<img alt="x" />');
    expect(sanitizeHtml('<a href="//evil.example">x</a><a href="\\\\evil">y</a>')).toBe(
      '<a rel="noopener noreferrer">x</a><a rel="noopener noreferrer">y</a>',
    );
    expect(sanitizeHtml('<a href="java<!-- -->script:alert(1)">x</a>')).toBe('<a rel="noopener noreferrer">x</a>');
  });

  it('escapes text and attribute values', () => {
    expect(sanitizeHtml('a < b && c > d "q" \'s\'')).toBe('a &lt; b &amp;&amp; c &gt; d "q" \'s\'');
    expect(sanitizeHtml('&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;',
    );
    expect(sanitizeHtml("<abbr title='\"><script>alert(1)</script>'>x</abbr>")).toBe(
      '<abbr title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">x</abbr>',
    );
    expect(sanitizeHtml('<p>&nbsp;&copy;&#x1F600;&#0;</p>')).toBe('<p>\u00a0©😀\ufffd</p>');
  });

  it('applies the attribute policy: rel in place, empty values, classes, table styles', () => {
    expect(sanitizeHtml('<a title="t" rel="opener" href="https://e.example">x</a>')).toBe(
      '<a title="t" rel="noopener noreferrer" href="https://e.example">x</a>',
    );
    expect(sanitizeHtml('<a href="https://a.example" HREF="javascript:alert(1)" onclick="alert(1)">x</a>')).toBe(
      '<a href="https://a.example" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href="javascript:alert(1)" href="https://a.example">x</a>')).toBe(
      '<a rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<img src="x" alt title="" width="">')).toBe('<img src="x" alt="" />');
    expect(sanitizeHtml('<table><tr><td align>x</td></tr></table>')).toBe('<table><tr><td align>x</td></tr></table>');
    expect(sanitizeHtml('<pre><code class=" language-js  language-föö x">y</code></pre>')).toBe(
      '<pre><code class="language-js">y</code></pre>',
    );
    expect(sanitizeHtml('<div class="language-js" id="x" style="text-align:left">y</div>')).toBe('<div>y</div>');
    expect(
      sanitizeHtml(
        '<table><tr><th style="text-align : center ;color:red">a</th><td style="text-align:left ' +
          '!important">b</td></tr></table>',
      ),
    ).toBe('<table><tr><th style="text-align:center">a</th><td style="text-align:left !important">b</td></tr></table>');
    // CSS the sanitiser does not model goes whole, even next to an allowed declaration.
    expect(
      sanitizeHtml(
        '<table><tr><td style="text-align:left;background:url(x)">b</td><td ' +
          'style="/**/text-align:left">c</td></tr></table>',
      ),
    ).toBe('<table><tr><td>b</td><td>c</td></tr></table>');
  });

  it('drops elements: their tags always, the content of script/style/textarea/option/xmp too', () => {
    expect(sanitizeHtml('<x-y onclick="alert(1)">kept <b>bold</b></x-y>')).toBe('kept <b>bold</b>');
    expect(
      sanitizeHtml(
        'a<script>alert(1)</script>b<style>*{}</style>c<textarea><b>t</b></textarea>d<select><option><b>o</b>' +
          '</option></select>e<xmp><i>x</i></xmp>f',
      ),
    ).toBe('abcdef');
    expect(sanitizeHtml('<title><img src=x onerror=alert(1)></title>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(sanitizeHtml('<!-- <img src=x onerror=alert(1)> --><![CDATA[<b>]]><?x y?><!DOCTYPE html>ok')).toBe('ok');
    expect(sanitizeHtml('<svg><a/><p>x</p></svg>')).toBe('<a rel="noopener noreferrer"></a><p>x</p>');
  });

  it('repairs structure: implied and missing end tags, stray end tags, cut-off tags', () => {
    expect(sanitizeHtml('<p>a<p>b<div>c')).toBe('<p>a</p><p>b</p><div>c</div>');
    expect(sanitizeHtml('<ul><li>a<li>b</ul></li></i>')).toBe('<ul><li>a</li><li>b</li></ul>');
    expect(sanitizeHtml('x</p>y</br>z')).toBe('x<p></p>y<br />z');
    expect(sanitizeHtml('<b><i>x</b>y</i>')).toBe('<b><i>x</i></b>y');
    expect(sanitizeHtml('<div><div')).toBe('<div></div>');
    expect(sanitizeHtml('<b>x<img src=x onerror=alert(1)')).toBe('<b>x</b>');
  });

  it('answers every input, even odd ones, with a string', () => {
    for (const html of [
      '',
      '<',
      '&',
      '\u0000',
      '\ud800',
      '<a\u0000href=x>',
      '<' + 'a'.repeat(100_000),
      '<div>'.repeat(20_000),
    ]) {
      expect(typeof sanitizeHtml(html)).toBe('string');
    }
  });
});

describe('preview sanitiser read in pieces', () => {
  /** Generated HTML in pieces, most ending with a newline (where the stream may be at rest). */
  const pieces = fc.array(
    fc.tuple(anyHtml, fc.constantFrom('\n', '\n', '\n', '')).map(([html, end]) => html + end),
    { minLength: 1, maxLength: 6 },
  );

  it('gives the same output read in pieces as read whole', () => {
    fc.assert(
      fc.property(pieces, (parts) => {
        const whole = parts.join('');
        const stream = new HtmlSanitizerStream(whole, 0);
        let end = 0;
        for (const part of parts) stream.advanceTo((end += part.length));
        expect(stream.end()).toBe(sanitizeHtml(whole));
      }),
      { numRuns: 1000 },
    );
  });

  it('is at rest only where what follows is sanitised as if it came alone', () => {
    let restsSeen = 0;
    fc.assert(
      fc.property(pieces, (parts) => {
        const whole = parts.join('');
        const stream = new HtmlSanitizerStream(whole, 0);
        let end = 0;
        for (const part of parts) {
          stream.advanceTo((end += part.length));
          if (!stream.atRest()) continue;
          restsSeen++;
          expect(sanitizeHtml(whole.slice(0, end)) + sanitizeHtml(whole.slice(end))).toBe(sanitizeHtml(whole));
        }
      }),
      { numRuns: 1500 },
    );
    expect(restsSeen).toBeGreaterThan(100);
  });

  it(
    'is not at rest inside a tag, comment, raw-text or open element, or foreign context, nor without a final ' +
      'newline',
    () => {
      const restsAfter = (html: string) => {
        const stream = new HtmlSanitizerStream(html, 0);
        stream.advanceTo(html.length);
        return stream.atRest();
      };
      for (const html of ['<p>x</p>\n', 'text\n', '<!-- c -->\n', '<b>x</b><br>\n', '</i>\n', 'a &amp\n'])
        expect(restsAfter(html), html).toBe(true);
      for (const html of [
        '<p>x</p>',
        '<div>\n',
        '<a href="x\n',
        '<!-- c\n',
        '<script>\n',
        '<title>x\n',
        '<option>x</p>\n',
        '<div><svg></div>\n',
        '<!x\n',
        '<?x\n',
        '</di\n',
      ]) {
        expect(restsAfter(html), html).toBe(false);
      }
    },
  );
});

describe('the sanitiser URL rule', () => {
  it('refuses every dangerous spelling once decoded, and allows the policy schemes', () => {
    const decoded = (url: string) => {
      let value = '';
      parseHtmlEvents(`<a href="${url.replace(/"/g, '&quot;')}">`, {
        wantsAttributes: () => true,
        start: (_tag, attributes) => (value = attributes?.get('href') ?? ''),
        text: () => undefined,
        end: () => undefined,
      });
      return value;
    };
    for (const url of DANGEROUS_URLS) {
      for (const tag of ['a', 'blockquote', 'q', 'td'])
        expect(urlAttributeAllowed(tag, decoded(url)), `${tag} ${url}`).toBe(false);
      // img: data: is a scheme of its own, limited to base64 raster images by the src rule.
      expect(urlAttributeAllowed('img', decoded(url)) && urlAllowed(decoded(url), 'img'), `img ${url}`).toBe(false);
    }
    for (const url of ['https://x', 'http://x', 'mailto:a@b', 'tel:1', '/a', 'a', '#a', '?a', ''])
      expect(urlAttributeAllowed('a', url), url).toBe(true);
    expect(urlAttributeAllowed('img', 'data:image/png;base64,AAAA')).toBe(true);
    expect(urlAttributeAllowed('a', 'data:image/png;base64,AAAA')).toBe(false);
    for (const url of ['//x', '\\\\x', '/\\x', ' \t//x', 'irc:x', 'file:///x', 'made-up:x'])
      expect(urlAttributeAllowed('a', url), url).toBe(false);
  });
});
