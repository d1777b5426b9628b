// The preview skips the HTML sanitiser when the markdown holds no raw HTML (src/system/markdown.ts).
// That is only sound if such output is already what the sanitiser would leave: a fixed point.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { preview, sanitize } from '../../src/system/markdown.js';

const url = fc.oneof(
  fc.constantFrom('https://e.example/a?b=1&c=2', 'http://x', '/rel/path', 'rel', '#frag', 'mailto:a@b.c', 'tel:+1', '', ' ', '//evil.example'),
  fc.constantFrom('javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'vbscript:x', 'data:text/html,x', 'data:image/png;base64,AAAA', 'data:image/svg+xml;base64,AAAA', 'irc://x', 'file:///etc/passwd', 'made-up:x'),
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
  fc.tuple(fc.constantFrom('js', 'föö', ';', 'c++', 'a b', '', 'x"y'), fc.string({ maxLength: 20 })).map(([info, code]) => `\`\`\`${info}\n${code}\n\`\`\``),
  fc.constantFrom('| a | b |\n|:-|-:|\n| 1 | 2 |', '# h1', '> quote', '- item\n- item', '1. one', '---'),
);
const markdown = fc.array(block, { maxLength: 5 }).map((bs) => bs.join('\n\n')).filter((s) => !s.includes('<'));

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
