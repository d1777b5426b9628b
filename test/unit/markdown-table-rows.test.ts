// Tables whose body rows are parsed and rendered a batch at a time (src/system/markdown-table-rows.ts)
// must give exactly what markdown-it's own table rule gives, on any input, and their token stream
// must not grow with the rows (that growth is what made a 1 MB table cost seconds).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { compactTableBodies, rowCells } from '../../src/system/markdown-table-rows.js';
import { preview, sanitize } from '../../src/system/markdown.js';

const stock = () => new MarkdownIt('commonmark').enable(['table', 'strikethrough']);
const holdsRawHtml = (tokens: Token[]): boolean =>
  tokens.some((t) => t.type === 'html_inline' || (t.children !== null && holdsRawHtml(t.children)));
const reference = stock();
const compact = stock();
compactTableBodies(compact, holdsRawHtml);

const cell = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a',
    ' text ',
    '\\|',
    'a\\|b',
    'a\\\\|b',
    '\\',
    '`code|x`',
    '*em*',
    '**st',
    '~~del~~',
    '[ref]',
    '[l](https://e.example)',
    '![i](x.png)',
  ),
  fc.constantFrom('<b>x</b>', '<', 'a < b', '&amp;', '"q"', '\t', 'ü', '\u00a0', '<!-- c -->', '\\*'),
  fc.string({ maxLength: 6 }),
);
const row = fc
  .tuple(fc.array(cell, { maxLength: 6 }), fc.boolean(), fc.boolean(), fc.constantFrom('', ' ', '   ', '    ', '\t'))
  .map(([cells, lead, trail, indent]) => `${indent}${lead ? '|' : ''}${cells.join('|')}${trail ? '|' : ''}`);
const align = fc.constantFrom('-', '---', ':-', '-:', ':-:', ' --- ');
const head = fc.array(fc.tuple(cell, align), { minLength: 1, maxLength: 4 }).chain((columns) =>
  fc.tuple(fc.boolean(), fc.boolean()).map(([lead, trail]) => {
    const line = (parts: string[]) => `${lead ? '|' : ''}${parts.join('|')}${trail ? '|' : ''}`;
    return `${line(columns.map(([c]) => c))}\n${line(columns.map(([, a]) => a))}`;
  }),
);
// Lines that may end a table (or not): blank, other blocks, text without a pipe.
const interruption = fc.constantFrom(
  '',
  '# h',
  '- item',
  '1. one',
  '> quote',
  '```',
  '<div>',
  '---',
  'no pipe here',
  '    code',
  '[ref]: https://r.example',
);
const table = fc
  .tuple(
    head,
    fc.array(fc.oneof({ weight: 4, arbitrary: row }, { weight: 1, arbitrary: interruption }), { maxLength: 8 }),
  )
  .map(([h, rows]) => [h, ...rows].join('\n'));
const inContainer = fc.tuple(table, fc.constantFrom('', '> ', '- ', '  ', '1. ')).map(([t, prefix]) => {
  if (prefix === '' || prefix === '  ')
    return t
      .split('\n')
      .map((l) => prefix + l)
      .join('\n');
  // A list item's continuation lines are indented under its text; a blockquote's are marked.
  const rest = prefix === '> ' ? '> ' : ' '.repeat(prefix.length);
  return t
    .split('\n')
    .map((l, i) => (i === 0 ? prefix : rest) + l)
    .join('\n');
});
const document = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: inContainer },
      {
        weight: 1,
        arbitrary: fc.constantFrom('para', 'para\nstill', '[ref]: https://r.example "t"', '| not | a table |'),
      },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .chain((blocks) =>
    fc
      .array(fc.constantFrom('\n', '\n\n'), { minLength: blocks.length, maxLength: blocks.length })
      .map((gaps) => blocks.map((b, i) => b + gaps[i]).join('')),
  );

describe('tables with compact bodies', () => {
  it("render exactly as markdown-it's table rule does, on generated documents", () => {
    fc.assert(
      fc.property(document, (md) => {
        expect(compact.render(md)).toBe(reference.render(md));
      }),
      { numRuns: 4000 },
    );
  });

  it('split rows as markdown-it does: escaped pipes, a backslash before an escaped pipe, edge pipes', () => {
    expect(rowCells('| a | b |')).toEqual([' a ', ' b ']);
    expect(rowCells('a\\|b|c')).toEqual(['a|b', 'c']);
    expect(rowCells('a\\\\|b')).toEqual(['a\\|b']);
    expect(rowCells('\\||x')).toEqual(['|', 'x']);
    expect(rowCells('|')).toEqual([]);
    expect(rowCells('||')).toEqual(['']);
    expect(rowCells('no pipe')).toEqual(['no pipe']);
  });

  it(
    'stop where markdown-it stops a table with too many missing cells, and resolve references defined after ' +
      'the table',
    () => {
      const sparse = `|a|b|c|\n|-|-|-|\n${'|x|\n'.repeat(40_000)}`;
      expect(compact.render(sparse)).toBe(reference.render(sparse));
      const refs = '| a |\n|---|\n| [r] and [s][] |\n\n[r]: https://r.example\n[s]: https://s.example "t"\n';
      expect(compact.render(refs)).toBe(reference.render(refs));
      expect(compact.render(refs)).toContain('<a href="https://r.example">r</a>');
    },
  );

  it('keep one token for a table body, however many rows it has', () => {
    const big = `| a | b |\n|---|:-:|\n${'| x | *y* |\n'.repeat(50_000)}`;
    const tokens = compact.parse(big, {});
    expect(tokens.map((t) => t.type)).toEqual([
      'table_open',
      'thead_open',
      'tr_open',
      'th_open',
      'inline',
      'th_close',
      'th_open',
      'inline',
      'th_close',
      'tr_close',
      'thead_close',
      'tbody_open',
      'table_body_rows',
      'tbody_close',
      'table_close',
    ]);
    expect(tokens[0]!.map).toEqual([0, 50_002]);
    expect(compact.render(big)).toBe(reference.render(big));
  });
});

describe('the preview of tables', () => {
  // Cells without links or images, whose rendering the preview adjusts (rel, URL policy).
  const plainCell = fc.constantFrom(
    'a',
    '"q"',
    '*em*',
    '`c`',
    '<b>x</b>',
    '<i>',
    '</i>',
    'a < b',
    '<img src=x onerror=alert(1)>',
    '<script>',
    '&amp;',
  );
  const plainTable = fc
    .array(fc.array(plainCell, { minLength: 1, maxLength: 3 }), { maxLength: 5 })
    .map((rows) => `| h | "h" |\n|---|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\nafter "q"`);

  it("is markdown-it's HTML as it is without raw HTML in a cell (a `<` alone is not), else that HTML sanitised", () => {
    const sameText = (html: string) => html.replace(/&quot;/g, '"');
    fc.assert(
      fc.property(plainTable, (md) => {
        const tokens = reference.parse(md, {});
        const html = reference.renderer.render(tokens, reference.options, {});
        if (holdsRawHtml(tokens)) expect(sameText(preview(md))).toBe(sameText(sanitize(html)));
        else expect(preview(md)).toBe(html);
      }),
      { numRuns: 1000 },
    );
  });
});
