// Text templates: splitting into literal and [expression] parts the way FastReport does, and
// every expression in the demo reports.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  compileTemplate,
  parseTemplate,
  TemplateError,
  type TemplatePart,
} from '../../../src/report/expr/index.js';
import { scopeOf } from './helpers.js';
import { CORE_DEMOS, DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';

/** Parts as short strings: "t:text" / "e:source". */
const parts = (text: string, brackets?: string) =>
  parseTemplate(text, brackets).map((p) => (p.kind === 'text' ? `t:${p.text}` : `e:${p.source}`));

describe('parseTemplate', () => {
  it.each<[string, string[]]>([
    ['Hello', ['t:Hello']],
    ['', []],
    ['[A]', ['e:A']],
    ['a [B] c', ['t:a ', 'e:B', 't: c']],
    ['[A][B]', ['e:A', 'e:B']],
    ['[[A] * [B]]', ['e:[A] * [B]']],
    [
      '[[Order Details.UnitPrice] * [Order Details.Quantity]]',
      ['e:[Order Details.UnitPrice] * [Order Details.Quantity]'],
    ],
    ['[[Products.ProductName].Substring(0,1)]', ['e:[Products.ProductName].Substring(0,1)']],
    ['x [a] y [b] z', ['t:x ', 'e:a', 't: y ', 'e:b', 't: z']],
    ['[', ['t:[']],
    ['a ] b', ['t:a ] b']],
    ['[A', ['t:[A']],
    ['a [ b [c] d', ['t:a [ b [c] d']],
    ['[A] [B', ['e:A', 't: [B']],
    ['[A] and [[B]', ['e:A', 't: and [[B]']],
    ['[A]]', ['e:A', 't:]']],
    ['[IIf(x, "]", "[")]', ['e:IIf(x, "]", "[")']],
    ['[Format("[{0}]", 1)] end', ['e:Format("[{0}]", 1)', 't: end']],
    ['Say "[Name]"', ['t:Say "', 'e:Name', 't:"']],
    ['[x + "unterminated]', ['t:[x + "unterminated]']],
    ['[x + "a\\"]"] ok', ['e:x + "a\\"]"', 't: ok']],
    ["[x == ']']", ["e:x == ']'"]],
    ["[x == '\\'']", ["e:x == '\\''"]],
    ["It's [Name]'s", ["t:It's ", 'e:Name', "t:'s"]],
    ["[it's] ok", ["e:it's", 't: ok']],
    ['[@"a\\"]', ['e:@"a\\"']],
    ['[@"a""]"" b"] z', ['e:@"a""]"" b"', 't: z']],
    ['[]', ['e:']],
    ['[A]\r\n[B]', ['e:A', 't:\r\n', 'e:B']],
    ['Total: [[Sub-Total] * 1.21] EUR', ['t:Total: ', 'e:[Sub-Total] * 1.21', 't: EUR']],
  ])('%j', (text, expected) => {
    expect(parts(text)).toEqual(expected);
  });

  it.each<[string, string, string[]]>([
    ['a <%[A] + 1%> b', '<%,%>', ['t:a ', 'e:[A] + 1', 't: b']],
    ['{A} and [B]', '{,}', ['e:A', 't: and [B]']],
    ['{{A}}', '{,}', ['e:{A}']],
    ['{Format("{0}", 1)}', '{,}', ['e:Format("{0}", 1)']],
    ['x {A', '{,}', ['t:x {A']],
    ['<<A>> <<B>>', '<<,>>', ['e:A', 't: ', 'e:B']],
  ])('%j with brackets %s', (text, brackets, expected) => {
    expect(parts(text, brackets)).toEqual(expected);
  });

  it('reports offsets of each expression, brackets included', () => {
    const p = parseTemplate('ab [x] [[y]]');
    expect(p).toEqual<TemplatePart[]>([
      { kind: 'text', text: 'ab ' },
      { kind: 'expr', source: 'x', start: 3, end: 6 },
      { kind: 'text', text: ' ' },
      { kind: 'expr', source: '[y]', start: 7, end: 12 },
    ]);
  });

  it.each(['', 'x', '[', ',]', '[,', '[,],'])('rejects Brackets %j', (brackets) => {
    expect(() => parseTemplate('a', brackets)).toThrow(TemplateError);
  });
});

describe('compileTemplate', () => {
  const scope = scopeOf();

  it.each<[string, string]>([
    [
      'Today is [Date]\r\nCurrent page number is [Page]\r\n2 + 2 = [2 + 2]',
      'Today is 3/15/2024 10:30:00 AM\r\nCurrent page number is 2\r\n2 + 2 = 4',
    ],
    ['[Employees.FirstName] [Employees.LastName]', 'Nancy Davolio'],
    ['[Row#].', '3.'],
    ['Total this order: [Sub-Total]', 'Total this order: 440.00'],
    ['[[Sub-Total] * 1.21]', '532.4000'],
    ['[[Sub-Total] * 0.21]', '92.4000'],
    ['[[Products.ProductName].Substring(0,1)]', 'C'],
    ['[[Order Details.UnitPrice] * [Order Details.Quantity]]', '168.0000'],
    ['[Report.ReportInfo.Description]', 'Demonstrates a simple list.'],
    ['[Employees.Notes]|', '|'],
    ['[IIf([Employees.Notes] == null, "(none)", [Employees.Notes])]', '(none)'],
    ['[B] [NullBool] [Orders.OrderDate.Year]', 'True False 1996'],
    ['no expressions', 'no expressions'],
    ['[unbalanced', '[unbalanced'],
  ])('%j renders %j', (text, expected) => {
    expect(compileTemplate(text).render(scope)).toBe(expected);
  });

  it('evaluates parts with their types and lists the expressions', () => {
    const t = compileTemplate('Page [Page] of [TotalPages]: [[Sub-Total] / 2]');
    expect(t.expressions.map((e) => e.source)).toEqual(['Page', 'TotalPages', '[Sub-Total] / 2']);
    const values = t.evaluate(scope);
    expect(values.slice(0, 4)).toEqual([
      'Page ',
      { value: 2, type: 'System.Int32' },
      ' of ',
      { value: 5, type: 'System.Int32' },
    ]);
    expect(values[5]).toMatchObject({ type: 'System.Decimal' });
    expect(String((values[5] as { value: unknown }).value)).toBe('220.00');
  });

  it('renders through a caller-supplied toText (per-expression formats)', () => {
    const t = compileTemplate('[Page] / [TotalPages]');
    expect(t.render(scope, (v, i) => `#${i}=${String(v.value)}`)).toBe('#0=2 / #1=5');
  });

  it('honours custom brackets', () => {
    expect(compileTemplate('<%[Page] + 1%>!', { brackets: '<%,%>' }).render(scope)).toBe('3!');
  });

  it('throws a TemplateError naming the object for a bad expression', () => {
    expect(() => compileTemplate('x [1 +] y', { where: 'Text5.Text' })).toThrow(
      /^Text5\.Text: expression "1 \+": syntax error at 4: unexpected end of expression$/,
    );
    expect(() => compileTemplate('[]', { where: 'Text5.Text' })).toThrow(
      /^Text5\.Text: expression "": empty expression$/,
    );
    expect(() => compileTemplate('a', { brackets: 'x', where: 'Text5' })).toThrow(/^Text5: invalid Brackets/);
  });

  it('names the object when an evaluation fails', () => {
    const t = compileTemplate('[1 / [NullInt]]', { where: 'Text9.Text' });
    expect(() => t.render(scope)).toThrow(/^Text9\.Text: expression "1 \/ \[NullInt\]": Attempted to divide by zero$/);
    expect(() => t.render(scope, undefined, 'Page2/Text9')).toThrow(/^Page2\/Text9: /);
  });
});

describe('the FastReport demo reports', () => {
  const dir = DEMO_REPORTS_DIR;
  const decode = (s: string) =>
    s
      .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  // Table.frx uses the aggregates of table cells (`Count(Cell28)`, in a table that a script
  // builds), which come with the script interpreter.
  const files = CORE_DEMOS.filter((f) => f !== 'Table.frx');

  it('holds the fixtures', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s: every text and expression compiles', (file) => {
    const xml = readFileSync(join(dir, file), 'utf8');
    let count = 0;
    for (const m of xml.matchAll(/\s(Text|Expression|Condition|Filter|DataColumn)="([^"]*)"/g)) {
      const value = decode(m[2]!);
      if (value === '') continue;
      if (m[1] === 'Text') {
        const t = compileTemplate(value, { where: `${file}: ${m[1]}` });
        count += t.expressions.length;
      } else {
        compileExpression(value, { where: `${file}: ${m[1]}` });
        count++;
      }
    }
    expect(count).toBeGreaterThanOrEqual(0);
  });
});
