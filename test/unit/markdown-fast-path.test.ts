// The preview skips the HTML sanitiser when the markdown holds no raw HTML (src/system/markdown.ts).
// That is only sound if such output is already what the sanitiser would leave: a fixed point.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { preview, renderMarkdown, sanitize } from '../../src/system/markdown.js';

const url = fc.oneof(
  fc.constantFrom(
    'https://e.example/a?b=1&c=2',
    'http://x',
    '/rel/path',
    'rel',
    '#frag',
    'mailto:a@b.c',
    'tel:+1',
    '',
    ' ',
    '//evil.example',
  ),
  fc.constantFrom(
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'vbscript:x',
    'data:text/html,x',
    'data:image/png;base64,AAAA',
    'data:image/svg+xml;base64,AAAA',
    'irc://x',
    'file:///etc/passwd',
    'made-up:x',
  ),
  fc.string({ maxLength: 12 }).filter((s) => !/[<>\s()]/.test(s)),
);
const inline = fc.oneof(
  fc.string({ maxLength: 20 }),
  url.map((u) => `[link](${u})`),
  url.map((u) => `[t](${u} "title \\"q\\"")`),
  url.map((u) => `![img](${u})`),
  url.map((u) => `[ref]\n\n[ref]: ${u}`),
  fc.constantFrom('*em*', '**strong**', '~~del~~', '`code & "x"`', '&amp; &lt; &#x27;', '\\*', '"quotes"'),
);
const block = fc.oneof(
  fc.array(inline, { maxLength: 4 }).map((xs) => xs.join(' ')),
  fc
    .tuple(fc.constantFrom('js', 'föö', ';', 'c++', 'a b', '', 'x"y'), fc.string({ maxLength: 20 }))
    .map(([info, code]) => `\`\`\`${info}\n${code}\n\`\`\``),
  fc.constantFrom('| a | b |\n|:-|-:|\n| 1 | 2 |', '# h1', '> quote', '- item\n- item', '1. one', '---'),
);
const markdown = fc
  .array(block, { maxLength: 5 })
  .map((bs) => bs.join('\n\n'))
  .filter((s) => !s.includes('<'));

const sameText = (html: string) => html.replace(/&quot;/g, '"');

describe('markdown preview fast path', () => {
  it('output without raw HTML is left unchanged by the sanitiser', () => {
    fc.assert(
      fc.property(markdown, (md) => {
        const out = preview(md);
        // Only the spelling of quotes in text may differ (markdown-it writes &quot;, the
        // sanitiser a plain "): the same document. Anything else means the fast path let
        // through something the policy removes.
        expect(sameText(sanitize(out))).toBe(sameText(out));
      }),
      { numRuns: 3000 },
    );
  });

  it('drops the same URLs as the sanitiser', () => {
    expect(preview('[x](javascript:alert(1))')).not.toContain('href');
    expect(preview('[x](irc://host)')).toBe('<p><a rel="noopener noreferrer">x</a></p>\n');
    expect(preview('![x](data:image/svg+xml;base64,AAAA)')).not.toContain('src=');
    expect(preview('![x](data:image/png;base64,AAAA)')).toContain('src="data:image/png;base64,AAAA"');
    expect(preview('```föö\nx\n```')).toBe('<pre><code>x\n</code></pre>\n');
  });
});

// With raw HTML, the sanitiser runs only over the blocks that hold it and over what follows until
// it is back at rest (src/system/markdown.ts, renderSanitisingRawHtml). That must give what
// sanitising the whole rendered document gives.
describe('markdown preview with raw HTML: only the blocks that need it are sanitised', () => {
  /** The whole-document reference: render everything, sanitise everything. */
  const sanitisedWhole = (md: string) => sanitize(renderMarkdown(md));

  const rawBlock = fc.constantFrom(
    '<div>',
    '</div>',
    '<div class="x">\n*a*\n</div>',
    '<div>\n\n*inside*\n\n</div>',
    '<!-- comment',
    '-->',
    '<!-- c -->',
    '<script>\nalert(1)\n',
    '</script>',
    '<script>alert(1)</script>',
    '<table><tr><td>',
    '</td></tr></table>',
    '<svg>',
    '</svg>',
    '</mtext>',
    '<math><mtext>',
    '<a href="https://e.example">',
    '<a href="javascript:alert(1)">',
    '</a>',
    '<pre>',
    '</pre>',
    '<p>',
    '</p>',
    '<textarea>',
    '</textarea>',
    '<?php echo 1;',
    '?>',
    '<![CDATA[',
    ']]>',
    '<style>p{}</style>',
    '<ul><li>',
    '<div id="a"\nclass="b">',
    '<del>',
    '<option>',
    '<title>',
    '<select>',
    '<x-custom onclick="alert(1)">',
    // Foreign context left behind with no element open (</div> closes the svg, the context stays).
    '<div><svg></div>',
    '<div><math><mtext></div>',
  );
  const rawInline = fc.constantFrom(
    '<kbd>x</kbd>',
    '<b>',
    '</b>',
    '<a href="javascript:alert(1)">',
    '</a>',
    '<span title="&quot;x">',
    '<br/>',
    '</p>',
    '<i>',
    '<img src=x onerror=alert(1)>',
    '<!-- x -->',
    '<svg/>',
    '<td>',
    '<em>"q"</em>',
    '<b/>',
    '<span/>x</span>',
  );
  const paragraph = fc
    .array(
      fc.oneof(
        fc.constantFrom('text', '*em*', '`code "q"`', '"quoted"', '[l](https://e.example "t")', '![i](x.png)', '&amp;'),
        rawInline,
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((xs) => xs.join(' '));
  const markdownBlock = fc.constantFrom(
    '# Title "q"',
    '> quote',
    '- a\n- b',
    '1. one',
    '---',
    '```js\n<b>x</b>\n```',
    '    indented',
    '| a | b |\n|:-|-:|\n| 1 | "2" |',
  );
  const documentWithRawHtml = fc
    .array(fc.oneof(rawBlock, paragraph, markdownBlock), { minLength: 1, maxLength: 8 })
    .chain((blocks) =>
      fc
        .array(fc.constantFrom('\n\n', '\n'), { minLength: blocks.length, maxLength: blocks.length })
        .map((gaps) => blocks.map((b, i) => b + gaps[i]).join('')),
    );

  it('gives what sanitising the whole rendered document gives, on generated markdown', () => {
    fc.assert(
      fc.property(documentWithRawHtml, (md) => {
        expect(sameText(preview(md))).toBe(sameText(sanitisedWhole(md)));
      }),
      { numRuns: 3000 },
    );
  });

  it(
    'gives what sanitising the whole rendered document gives, on the CommonMark examples, alone and as one ' +
      'document',
    () => {
      const require = createRequire(import.meta.url);
      const examples = (require('commonmark-spec') as { tests: Array<{ markdown: string }> }).tests.map(
        (t) => t.markdown,
      );
      for (const md of examples) expect(sameText(preview(md)), md).toBe(sameText(sanitisedWhole(md)));
      const corpus = examples.join('\n\n');
      expect(sameText(preview(corpus))).toBe(sameText(sanitisedWhole(corpus)));
      // Reversed, so that the document no longer starts with the examples whose unclosed raw tags
      // keep the sanitiser busy to the end.
      const reversed = [...examples].reverse().join('\n\n');
      expect(sameText(preview(reversed))).toBe(sameText(sanitisedWhole(reversed)));
    },
  );

  it(
    'leaves the blocks before the first raw HTML, and after the sanitiser is at rest again, as markdown-it ' +
      'wrote them',
    () => {
      const md = 'A "quote".\n\n<div>\n\n*in*\n\n</div>\n\nB "quote".\n\nPress <kbd>Ctrl</kbd> "now".\n\nC "quote".\n';
      expect(preview(md)).toBe(
        '<p>A &quot;quote&quot;.</p>\n<div>\n<p><em>in</em></p>\n</div>\n<p>B &quot;quote&quot;.</p>\n<p>Press ' +
          '<kbd>Ctrl</kbd> "now".</p>\n<p>C &quot;quote&quot;.</p>\n',
      );
      // An element left open keeps the sanitiser running to the end, which closes it.
      expect(preview('<div>\n\nA "quote".\n')).toBe('<div>\n<p>A "quote".</p>\n</div>');
      // So does a foreign context left behind (here `<b/>` then closes itself, as in the whole).
      const foreign = '<div><svg></div>\n\nA\n\nB <b/>c\n';
      expect(preview(foreign)).toBe(sanitize(renderMarkdown(foreign)));
      expect(preview(foreign)).toContain('<b></b>c');
    },
  );
});
