// Property tests: random token streams as report scripts — C# keywords, names (hostile
// ones among them: constructor, __proto__, process, File), operators, punctuation, literals and
// braces — as members of class ReportScript and as method bodies. Whatever the text, parsing
// gives a program or a SyntaxErr, and running it (with small budgets) returns or ends in a
// ScriptError: never a TypeError, RangeError or other error from the JavaScript underneath, never
// a hang, never a change to Object.prototype. Through a whole report, a random script renders or
// ends in a TemplateError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { SyntaxErr } from '../../../src/report/expr/lexer.js';
import {
  ScriptError,
  type ScriptHost,
  type ScriptLimits,
  ScriptRuntime,
} from '../../../src/report/script/interpreter.js';
import { parseScript } from '../../../src/report/script/parser.js';
import { runTemplate } from '../engine/helpers.js';

const KEYWORDS = [
  'public',
  'private',
  'static',
  'void',
  'int',
  'long',
  'double',
  'decimal',
  'bool',
  'char',
  'string',
  'object',
  'var',
  'new',
  'return',
  'if',
  'else',
  'while',
  'for',
  'foreach',
  'in',
  'do',
  'switch',
  'case',
  'default',
  'break',
  'continue',
  'try',
  'catch',
  'finally',
  'throw',
  'true',
  'false',
  'null',
  'this',
  'class',
  'struct',
  'using',
  'namespace',
  'typeof',
  'is',
  'as',
  'const',
  'readonly',
  'unsafe',
  'fixed',
  'dynamic',
  'extern',
  'lock',
  'goto',
  'yield',
  'get',
  'set',
];

const NAMES = [
  'x',
  'y',
  'i',
  'M',
  'N',
  'total',
  'list',
  'dict',
  'Rate',
  'ReportScript',
  'List<int>',
  'Dictionary<string, int>',
  'int[]',
  'Hashtable',
  'Exception',
  'Math.Max',
  'String.Format',
  'Convert.ToInt32',
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'globalThis',
  'process',
  'require',
  'eval',
  'Function',
  'File',
  'Process',
  'System.IO',
  'Report',
  'Engine',
  'GetType',
  'Add',
  'Count',
  'Length',
];

const OPERATORS = [
  '+',
  '-',
  '*',
  '/',
  '%',
  '++',
  '--',
  '==',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '&&',
  '||',
  '!',
  '?',
  ':',
  '??',
  '??=',
  '=',
  '+=',
  '-=',
  '*=',
  '<<=',
  '>>=',
  '&',
  '|',
  '^',
  '~',
  '<<',
  '>>',
  '=>',
  '.',
  '?.',
  '::',
  '#',
  '@',
  '$',
];

const PUNCTUATION = ['(', ')', '{', '}', '[', ']', ';', ',', '.', '{', '}', ';'];

const LITERALS = [
  '0',
  '1',
  '-1',
  '7',
  '2147483647',
  'int.MaxValue',
  'long.MinValue',
  '1.5',
  '1e308',
  '0.1m',
  '10L',
  '0xFF',
  '"s"',
  '""',
  '"__proto__"',
  '"constructor"',
  "'c'",
  "'\\0'",
  '@"v"',
  '"a\\"b"',
  '"unterminated',
  '/* c */',
  '// line\n',
];

const TOKENS = [...KEYWORDS, ...NAMES, ...OPERATORS, ...PUNCTUATION, ...LITERALS];

/** Statement-sized pieces: random sequences of these parse far more often than single tokens. */
const FRAGMENTS = [
  'int x = 0;',
  'x++;',
  'x += 3;',
  'total = x * 2;',
  'list.Add(x);',
  'dict["__proto__"] = x;',
  'dict[x.ToString()] = 1;',
  'return x;',
  'return list.Count;',
  'if (x > 2)',
  'else',
  '{',
  '}',
  'while (x < 5)',
  'for (int i = 0; i < 3; i++)',
  'foreach (var v in list)',
  'do { x++; } while (x < 4);',
  'try {',
  '} catch (Exception e) {',
  '} finally {',
  'throw new Exception("boom");',
  'switch (x) { case 1: x = 2; break; default: break; }',
  'break;',
  'continue;',
  'var s = "ab" + x;',
  's += s;',
  'N(x);',
  'M();',
  'x = N(x) + 1;',
  'string t = s.Substring(x);',
  'var a = new int[x];',
  'a[x] = 1;',
  'x = x / (x - x);',
  'object o = constructor;',
  'o = "x".constructor;',
  'o = __proto__;',
  'x = (int)o;',
  'var q = o as string;',
  'list = null;',
  'list.Add(1);',
];

const LIMITS: ScriptLimits = { maxSteps: 5_000, maxItems: 500, maxDepth: 20 };
/** Each run ends well within this (the budgets above are small). */
const RUN_MS = 2_000;

const host: ScriptHost = {
  convertNulls: true,
  resolve: (name) => (name === 'Rate' ? { value: 2 } : undefined),
  assign: () => false,
};

const tokens = (max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...TOKENS), { maxLength: max }).map((ts) => ts.join(' '));

const fragments = (max: number): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...FRAGMENTS), weight: 6 },
        { arbitrary: fc.constantFrom(...TOKENS), weight: 1 },
      ),
      { maxLength: max },
    )
    .map((ts) => ts.join('\n'));

/** Methods wrapped around a body: fields the bodies use, and two methods to call. */
const inMethods = (m: string, n: string): string =>
  `using System;\nnamespace FastReport {\npublic class ReportScript {\n` +
  `int total; List<int> list = new List<int>(); Dictionary<string, int> dict = new Dictionary<string, int>();\n` +
  `object M() {\n${m}\n}\nint N(int x) {\n${n}\n}\n}\n}`;

/** Parses and runs `src`: how many methods with a body it ran, or 'syntax'; throws what is neither
 *  a SyntaxErr nor a ScriptError. */
function runScript(src: string): number | 'syntax' {
  let program: ReturnType<typeof parseScript>;
  try {
    program = parseScript(src);
  } catch (e) {
    if (e instanceof SyntaxErr) return 'syntax';
    throw e;
  }
  for (const w of program.warnings) expect(w).toMatch(/^Script line \d+: /);
  const rt = new ScriptRuntime(program, host, LIMITS);
  const attempt = (fn: () => unknown): void => {
    try {
      rt.guard(fn);
    } catch (e) {
      if (!(e instanceof ScriptError)) throw e;
      expect(e.message).toMatch(/\(script method .+, line \d+\)$/);
    }
  };
  attempt(() => rt.init());
  let ran = 0;
  for (const m of program.methods) {
    const args = m.params.filter((p) => p.init === null).map(() => 1);
    if (m.body !== null) ran++;
    attempt(() => rt.call(m.name, args));
  }
  return ran;
}

/** The property: the run ends in time with one of the project's errors, nothing else. */
function holds(src: string): number | 'syntax' {
  const started = Date.now();
  let escaped: unknown;
  let ran: number | 'syntax' = 'syntax';
  try {
    ran = runScript(src);
  } catch (e) {
    escaped = e;
  }
  if (escaped !== undefined) {
    const name = escaped instanceof Error ? escaped.constructor.name : typeof escaped;
    throw new Error(`${name} escaped: ${String((escaped as Error)?.message ?? escaped)}\n--- script ---\n${src}`);
  }
  expect(Date.now() - started).toBeLessThan(RUN_MS);
  expect(({} as any).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('x');
  return ran;
}

describe('random token streams as a report script', () => {
  it('as the members of class ReportScript: a program or a SyntaxErr, then a result or a ScriptError', () => {
    fc.assert(
      fc.property(tokens(40), (body) => {
        holds(`public class ReportScript {\n${body}\n}`);
      }),
      { numRuns: 400 },
    );
  });

  it('as method bodies', () => {
    fc.assert(
      fc.property(tokens(30), tokens(20), (m, n) => {
        holds(inMethods(m, n));
      }),
      { numRuns: 400 },
    );
  });

  it('as statement fragments mixed with tokens in method bodies', () => {
    let ran = 0;
    fc.assert(
      fc.property(fragments(16), fragments(8), (m, n) => {
        const r = holds(inMethods(m, n));
        if (r !== 'syntax') ran += r;
      }),
      { numRuns: 400 },
    );
    // The fragments reach the interpreter, not only the parser.
    expect(ran).toBeGreaterThan(100);
  });

  it('reproduces the known shapes', () => {
    for (const src of [
      inMethods('while (true) { }', 'return N(x);'),
      inMethods('dict["__proto__"] = 1; dict["constructor"] = 2; return dict.Count;', 'return x;'),
      inMethods('var s = "ab"; while (true) s += s;', 'int[] a = new int[int.MaxValue]; return 0;'),
      'public class ReportScript { object M() { return "x".constructor.constructor("return process")(); } }',
      'public class ReportScript { ',
    ])
      holds(src);
  });
});

// ---------------------------------------------------------------------------------------------
// Through a whole report (the engine's budgets are the defaults, so no loop keywords here: a
// script that loops forever takes seconds to stop, which the loop tests elsewhere cover).

const LOOPS = new Set(['while', 'for', 'foreach', 'do']);
const REPORT_TOKENS = [...TOKENS.filter((t) => !LOOPS.has(t)), 'Title1_BeforePrint', 'object sender, EventArgs e'];
const REPORT_FRAGMENTS = FRAGMENTS.filter((f) => !/\b(while|for|foreach|do)\b/.test(f));

const xml = (s: string): string =>
  s
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function report(script: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp">
  <ScriptText>${xml(script)}</ScriptText>
  <Dictionary/>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title1" Width="718.2" Height="20" BeforePrintEvent="Title1_BeforePrint">
      <TextObject Name="Out" Width="300" Height="20" Text="Report"/>
    </ReportTitleBand>
  </ReportPage>
</Report>`;
}

describe('a random script in a report', () => {
  it('renders, or ends in a TemplateError', () => {
    const body = fc
      .array(fc.oneof(fc.constantFrom(...REPORT_FRAGMENTS), fc.constantFrom(...REPORT_TOKENS)), { maxLength: 16 })
      .map((ts) => ts.join('\n'));
    fc.assert(
      fc.property(body, fc.boolean(), (b, asHandler) => {
        const script = asHandler
          ? `public class ReportScript {\nint x; List<int> list = new List<int>();\n` +
            `void Title1_BeforePrint(object sender, EventArgs e) {\n${b}\n}\n}`
          : `public class ReportScript {\n${b}\n}`;
        const started = Date.now();
        try {
          const { prepared } = runTemplate(report(script));
          expect(prepared.pages.length).toBeGreaterThan(0);
        } catch (e) {
          if (!(e instanceof TemplateError)) {
            const name = e instanceof Error ? e.constructor.name : typeof e;
            throw new Error(
              `${name} escaped the report: ${String((e as Error)?.message ?? e)}\n--- script ---\n${script}`,
            );
          }
        }
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(({} as any).polluted).toBeUndefined();
      }),
      { numRuns: 50 },
    );
  });
});
