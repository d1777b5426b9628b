// The evaluator reaches only the scope and its own function tables, stays within its limits,
// and fails only with TemplateErrors — whatever the input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  compileTemplate,
  parseTemplate,
  type Scope,
  TemplateError,
} from '../../../src/report/expr/index.js';
import { NWIND, scopeOf } from './helpers.js';

declare global {
  // eslint-disable-next-line no-var
  var __pwned: unknown;
}

/** Compiles and evaluates; returns the result or the TemplateError. Anything else is a failure. */
function attempt(
  src: string,
  scope: Scope = scopeOf(),
): { ok: true; value: unknown } | { ok: false; error: TemplateError } {
  try {
    return { ok: true, value: compileExpression(src).evaluate(scope) };
  } catch (e) {
    if (e instanceof TemplateError) return { ok: false, error: e };
    throw e;
  }
}

const ESCAPES = [
  '"".constructor',
  '"".constructor.constructor("return process")()',
  '"".constructor.constructor("globalThis.__pwned = 1")()',
  '[x].constructor.constructor("return process")()',
  '[S].constructor',
  '[S].constructor.constructor("return this")()',
  '[S]["constructor"]',
  '[S].__proto__',
  '[S].prototype',
  '[S].length',
  '[S].toString',
  '[S].valueOf()',
  '[S].charAt(0)',
  '[S].slice(1)',
  '"a".constructor.name',
  '"a"["constructor"]["constructor"]("return 1")()',
  '(1).constructor',
  '1.5.constructor',
  '[I].constructor',
  '[M].coef',
  '[M].constructor',
  '[Orders.OrderDate].getTime()',
  '[Orders.OrderDate].constructor',
  '[Orders.OrderDate].__proto__',
  '[Bytes].buffer',
  '[Bytes].constructor',
  '[Json].a',
  '[Json].constructor',
  '[Json]["a"]',
  '[Json].__proto__',
  '[Arr].map',
  '[Arr].constructor',
  '[Arr].__proto__.constructor',
  'Report.__proto__',
  'Report.constructor',
  'Report.ReportInfo.constructor',
  'Report.ReportInfo.Name.constructor',
  'this',
  'this.constructor',
  'base.ToString()',
  'globalThis',
  'globalThis.process',
  'process',
  'process.exit(1)',
  'process.env',
  'require("fs")',
  'import("fs")',
  'module',
  'Function("return 1")()',
  'eval("1")',
  'constructor',
  '__proto__',
  'prototype',
  'Object',
  'Object.prototype',
  'Object.keys(Math)',
  'Math.constructor',
  'Math.__proto__',
  'Math.max(1, 2)',
  'Math.constructor.constructor("return process")()',
  'Convert.constructor',
  'String.fromCharCode(65)',
  'String.prototype',
  'String.raw',
  'DateTime.constructor',
  'DateTime.Now.constructor',
  'DBNull.Value.constructor',
  'IIf.constructor',
  'IIf(true, "".constructor, 1)',
  'Value.constructor',
  'new Function("return 1")',
  'new Object()',
  'new String("a")',
  'new DateTime(2020, 1, 1).constructor',
  'typeof(Math)',
  'x => x',
  '(() => 1)()',
  'a = 1',
  '[S] = "x"',
  'Math.PI = 3',
  '$"{1}"',
  '`1`',
  'ToString.call(1)',
  'Choose(1, this)',
  '"".GetType()',
  '[S].GetType().Assembly',
  'typeof(string).Assembly',
  'default(int)',
  'nameof(x)',
  '@this',
  '@constructor',
  'System.Environment.Exit(1)',
  'System.IO.File.ReadAllText("/etc/passwd")',
  'System.Diagnostics.Process.Start("sh")',
  'Environment.Exit(1)',
  'Environment.GetEnvironmentVariable("PATH")',
];

describe('no way out of the sandbox', () => {
  it.each(ESCAPES)('%s', (src) => {
    globalThis.__pwned = undefined;
    const r = attempt(src);
    expect(globalThis.__pwned).toBeUndefined();
    if (r.ok) {
      // Only plain data may come back: never a function, never a host object.
      expect(typeof r.value).not.toBe('function');
      expect(r.value === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof r.value)).toBe(true);
    } else {
      expect(r.error).toBeInstanceOf(TemplateError);
    }
  });

  it('even a careless scope backed by a plain object does not leak', () => {
    const obj: Record<string, unknown> = { X: { value: 1, type: 'System.Int32' } };
    const careless: Scope = { resolve: (n) => obj[n] as never, convertNulls: true };
    for (const src of [
      'constructor',
      '__proto__',
      'toString',
      'constructor.constructor("return process")()',
      '[constructor]',
      '[__proto__].constructor',
      'hasOwnProperty',
    ]) {
      const r = attempt(src, careless);
      if (r.ok) expect(r.value === null || typeof r.value !== 'function').toBe(true);
      else expect(r.error).toBeInstanceOf(TemplateError);
    }
  });

  it('a scope that throws a plain Error is reported as a TemplateError', () => {
    const scope: Scope = {
      resolve: () => {
        throw new TypeError('boom');
      },
      convertNulls: true,
    };
    expect(() => compileExpression('[A] + 1').evaluate(scope)).toThrow(TemplateError);
  });

  it('an invalid scope value is a TemplateError', () => {
    const scope: Scope = { resolve: () => ({ value: () => 1 }), convertNulls: true };
    expect(() => compileExpression('[A]').evaluate(scope)).toThrow(TemplateError);
    const scope2: Scope = { resolve: () => ({ value: Symbol('x') }), convertNulls: true };
    expect(() => compileExpression('[A]').evaluate(scope2)).toThrow(TemplateError);
    const scope3: Scope = { resolve: () => ({ value: 'abc', type: 'System.Int32' }), convertNulls: true };
    expect(() => compileExpression('[A]').evaluate(scope3)).toThrow(/not a valid System\.Int32/);
  });
});

describe('limits', () => {
  it('rejects a source longer than 64 KiB', () => {
    const src = `1${' + 1'.repeat(20_000)}`;
    expect(() => compileExpression(src)).toThrow(/longer than 65536/);
  });

  it.each([
    ['nested parentheses', `${'('.repeat(300)}1${')'.repeat(300)}`],
    ['a long chain of additions', `1${' + 1'.repeat(300)}`],
    ['a long chain of unary minus', `${'- '.repeat(2000)}1`],
    ['a long chain of logical not', `${'!'.repeat(2000)}true`],
    ['nested function calls', `${'Abs('.repeat(300)}1${')'.repeat(300)}`],
    ['nested ternaries', `${'true ? 1 : '.repeat(300)}0`],
    ['nested ??', `${'null ?? '.repeat(300)}0`],
    ['nested casts', `${'(int)'.repeat(300)}1`],
    ['deep parentheses far beyond the stack', `${'('.repeat(100_000)}1${')'.repeat(100_000)}`.slice(0, 65_000)],
  ])('rejects %s (depth limit)', (_name, src) => {
    expect(() => compileExpression(src)).toThrow(/nested more than 256 levels|longer than/);
  });

  it('accepts reasonably nested expressions', () => {
    expect(compileExpression(`${'('.repeat(100)}1${')'.repeat(100)}`).evaluate(scopeOf())).toBe(1);
    expect(compileExpression(`0${' + 1'.repeat(200)}`).evaluate(scopeOf())).toBe(200);
  });

  it('the depth limit is configurable', () => {
    expect(() => compileExpression('((((1))))', { limits: { maxDepth: 3 } })).toThrow(/nested more than 3 levels/);
  });

  it.each([
    ['"x".PadLeft(20000000)', /longer than the limit/],
    ['PadLeft("", 16777217)', /longer than the limit/],
    ['"".PadLeft(10000000) + "".PadLeft(10000000)', /longer than the limit/],
    ['"".PadLeft(9000000).Replace(" ", "  ")', /longer than the limit/],
    ['"".PadLeft(9000000).Insert(0, "".PadLeft(9000000))', /longer than the limit/],
  ])('caps the length of produced strings: %s', (src, message) => {
    expect(() => compileExpression(src).evaluate(scopeOf())).toThrow(message);
  });

  it('stops an evaluation that takes too many steps', () => {
    const src = Array.from({ length: 200 }, () => 'Length(PadLeft("", 16000000))').join(' + ');
    expect(() => compileExpression(src).evaluate(scopeOf())).toThrow(/more than 2000000 steps/);
  });

  it('the step budget is configurable and counts nodes', () => {
    const c = compileExpression(`0${' + 1'.repeat(100)}`, { limits: { maxSteps: 50 } });
    expect(() => c.evaluate(scopeOf())).toThrow(/more than 50 steps/);
  });

  it('huge splits and char arrays are stopped by the budget', () => {
    expect(() => compileExpression('"".PadLeft(8000000).Split().Length').evaluate(scopeOf())).toThrow(/steps/);
    expect(() => compileExpression('"".PadLeft(8000000).ToCharArray().Length').evaluate(scopeOf())).toThrow(/steps/);
  });

  it('each evaluation gets a fresh budget', () => {
    const c = compileExpression(`0${' + 1'.repeat(100)}`, { limits: { maxSteps: 250 } });
    for (let i = 0; i < 10; i++) expect(c.evaluate(scopeOf())).toBe(100);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

function onlyTemplateErrors(src: string, convertNulls: boolean): void {
  let compiled: ReturnType<typeof compileExpression>;
  try {
    compiled = compileExpression(src);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return;
  }
  try {
    const v = compiled.evaluate(scopeOf(NWIND, { convertNulls }));
    expect(typeof v).not.toBe('function');
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
  }
}

const TOKENS = [
  '1',
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '1.5',
  '0.1m',
  '7m',
  '1e308',
  '1e-5',
  '3f',
  '5L',
  '0x10',
  "'a'",
  "'\\n'",
  '"abc"',
  '""',
  '@"x""y"',
  'true',
  'false',
  'null',
  'DBNull.Value',
  '[I]',
  '[L]',
  '[D]',
  '[M]',
  '[S]',
  '[B]',
  '[NullInt]',
  '[NullStr]',
  '[NullDate]',
  '[Missing]',
  '[Unknown]',
  '[Orders.OrderDate]',
  '[Sub-Total]',
  '[Row#]',
  '[Bytes]',
  '[Json]',
  '[Arr]',
  'Report.ReportInfo.Name',
  'Value',
  'Page',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<<',
  '>>',
  '<',
  '>',
  '<=',
  '>=',
  '==',
  '!=',
  '&',
  '^',
  '|',
  '&&',
  '||',
  '??',
  '?',
  ':',
  '!',
  '~',
  '(',
  ')',
  '[',
  ']',
  ',',
  '.',
  '?.',
  '(int)',
  '(decimal)',
  '(double)',
  '(string)',
  '(DateTime)',
  '(char)',
  '(long)',
  '(int?)',
  'IIf(',
  'Choose(',
  'Switch(',
  'IsNull(',
  'Round(',
  'Substring(',
  'PadLeft(',
  'ToWords(',
  'ToRoman(',
  'Format(',
  'FormatNumber(',
  'DateSerial(',
  'AddMonths(',
  'Math.Round(',
  'Math.Max(',
  'Convert.ToInt32(',
  'Convert.ToDecimal(',
  'String.Format(',
  'DateTime.Now',
  'TimeSpan.FromDays(',
  'new DateTime(',
  '.Length',
  '.Substring(',
  '.ToString(',
  '.Year',
  '.AddDays(',
  '.Split(',
  '.Replace(',
  '.PadLeft(',
  '.Trim()',
  '.DayOfWeek',
  '.constructor',
  '.__proto__',
  '"{0:N2}"',
  '"{0}"',
  '"{1}"',
  'int.MaxValue',
  'decimal.MaxValue',
  'double.NaN',
  'this',
  'constructor',
];

describe('properties', () => {
  it('random text: compile and evaluate fail only with TemplateError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.boolean(), (src, cn) => onlyTemplateErrors(src, cn)),
      { numRuns: 3000 },
    );
  });

  it('random UTF-16 (lone surrogates included): only TemplateError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (src) => onlyTemplateErrors(src, true)),
      { numRuns: 1000 },
    );
  });

  it('random token soups from the grammar: only TemplateError', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 14 }), fc.boolean(), (toks, cn) =>
        onlyTemplateErrors(toks.join(' '), cn),
      ),
      { numRuns: 6000 },
    );
  });

  it('random token soups without spaces: only TemplateError', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 10 }), (toks) =>
        onlyTemplateErrors(toks.join(''), false),
      ),
      { numRuns: 3000 },
    );
  });

  it('random well-formed arithmetic over ints never throws a raw error, and int results stay in range', () => {
    const leaf = fc.oneof(
      fc.integer({ min: -1000, max: 1000 }).map(String),
      fc.constantFrom('[I]', '[Row#]', 'int.MaxValue', 'int.MinValue'),
    );
    const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc
          .tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '&', '|', '^', '<<', '>>'), tie('e'))
          .map(([a, op, b]) => `(${a} ${op} ${b})`),
        tie('e').map((a) => `-(${a})`),
      ),
    })).e;
    fc.assert(
      fc.property(expr, (src) => {
        const r = attempt(src);
        if (r.ok) {
          expect(typeof r.value).toBe('number');
          expect(Number.isInteger(r.value)).toBe(true);
          expect(r.value as number).toBeGreaterThanOrEqual(-2147483648);
          expect(r.value as number).toBeLessThanOrEqual(2147483647);
        } else expect(r.error.message).toMatch(/divide by zero|overflow/);
      }),
      { numRuns: 2000 },
    );
  });

  it('templates: parts put back together give the text; compileTemplate fails only with TemplateError', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('[', ']', '[A]', '[[A]]', '"', "'", '@"', '\\', '[I]', '[S]', '[1 +', ' + '),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const parts = parseTemplate(text);
        expect(parts.map((p) => (p.kind === 'text' ? p.text : `[${p.source}]`)).join('')).toBe(text);
        for (const p of parts) if (p.kind === 'expr') expect(text.slice(p.start, p.end)).toBe(`[${p.source}]`);
        try {
          compileTemplate(text).render(scopeOf());
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('costly inputs stay cheap', () => {
  it.each([
    ['Convert.ToInt32("".PadLeft(5000000, \'1\'))', /too large or too small/],
    ['Convert.ToInt64("-" + "".PadLeft(100, \'0\') + "5")', null],
    ['"".PadLeft(16000000).Replace(" ", "")', null],
    [
      'Length(TitleCase("".PadLeft(16000000, \'a\'))) + Length(TitleCase("".PadLeft(16000000, \'a\'))) + ' +
        'Length(TitleCase("".PadLeft(16000000, \'a\')))',
      /steps/,
    ],
    ['"a$&b".Replace("a", "$&$1$$")', null],
  ])('%s', (src, message) => {
    const t0 = performance.now();
    const r = attempt(src);
    expect(performance.now() - t0).toBeLessThan(5000);
    if (message) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(message);
    } else expect(r.ok).toBe(true);
  });

  it('Replace takes the replacement literally', () => {
    expect(attempt('"a$&b".Replace("a", "$&$1$$")')).toEqual({ ok: true, value: '$&$1$$$&b' });
  });
});
