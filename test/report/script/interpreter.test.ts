// The report script interpreter: statements, scoping, collections, numeric semantics
// shared with the expression engine, exceptions and limits, on scripts run without a report.
import { describe, expect, it } from 'vitest';
import { toPublic } from '../../../src/report/expr/values.js';
import { parseScript } from '../../../src/report/script/parser.js';
import {
  DEFAULT_SCRIPT_LIMITS,
  ScriptError,
  type ScriptHost,
  type ScriptLimits,
  ScriptRuntime,
} from '../../../src/report/script/interpreter.js';

const host = (names: Record<string, unknown> = {}, sets: Record<string, unknown> = {}): ScriptHost => ({
  convertNulls: true,
  resolve: (name) => (Object.hasOwn(names, name) ? { value: names[name] } : undefined),
  assign: (segs, v) => {
    const key = segs.join('.');
    if (!Object.hasOwn(names, key)) return false;
    sets[key] = toPublic(v);
    return true;
  },
});

function runtime(members: string, h: ScriptHost = host(), limits: ScriptLimits = DEFAULT_SCRIPT_LIMITS) {
  const program = parseScript(`public class ReportScript {\n${members}\n}`);
  const bad = program.methods.filter((m) => m.refused);
  if (bad.length) throw new Error(bad.map((m) => m.refused).join('; '));
  const rt = new ScriptRuntime(program, h, limits);
  rt.guard(() => rt.init());
  return rt;
}

/** The public value `M()` returns for a method body. */
function run(body: string, extra = '', h?: ScriptHost): unknown {
  const rt = runtime(`${extra}\nobject M() { ${body} }`, h);
  return toPublic(rt.guard(() => rt.call('M', [])));
}

const str = (body: string, extra = ''): string => String(run(body, extra));

describe('locals, fields and methods', () => {
  it.each([
    ['return 1 + 2;', 3],
    ['int x = 5; return x * 2;', 10],
    ['var s = "a"; s += "b"; return s;', 'ab'],
    ['int a = 1, b = 2, c; c = a + b; return c;', 3],
    ['int x = 1; { int y = 2; x += y; } return x;', 3],
    ['int x = 7; x -= 2; x *= 3; x /= 2; x %= 4; return x;', 3],
    ['int x = 6; x &= 3; x |= 8; x ^= 1; return x;', 11],
    ['int x = 1; x <<= 4; x >>= 1; return x;', 8],
    ['string s = null; s ??= "d"; s ??= "e"; return s;', 'd'],
    ['int i = 0; i++; ++i; i--; return i;', 1],
    ['int i = 5; int j = i++; return j * 10 + i;', 56],
    ['int i = 5; int j = ++i; return j * 10 + i;', 66],
    ['int a, b; a = b = 4; return a + b;', 8],
    ['double d = 1; return d / 2;', 0.5],
    ['int n = 7 / 2; return n;', 3],
    ['decimal m = 10; return m / 4;', '2.5'],
    ['long big = 2147483647; big++; return big;', 2147483648n],
    ['return (int)3.9;', 3],
    ['return 1 == 1 ? "yes" : "no";', 'yes'],
    ['return "abc".Substring(1).ToUpper();', 'BC'],
    ['return Math.Max(2, 9);', 9],
    ['return String.Format("{0:N2}", 1234.5);', '1,234.50'],
    ['return Convert.ToInt32("42") + 1;', 43],
  ])('%s → %s', (body, expected) => {
    const v = run(body);
    expect(typeof v === 'object' && v !== null ? String(v) : v).toEqual(expected);
  });

  it('keeps fields between calls and runs their initialisers once', () => {
    const rt = runtime(
      'int total = 10; List<int> seen = new List<int>(); void Add(int x) { total += x; ' +
        'seen.Add(x); } int Count() { return seen.Count; }',
    );
    rt.call('Add', [5]);
    rt.call('Add', [7]);
    expect(rt.field('total')).toBe(22);
    expect(rt.call('Count', [])).toBe(2);
  });

  it('passes parameters, with defaults, and returns', () => {
    const rt = runtime(
      'string Join(string a, string b = "-", int n = 2) { string s = a; for (int i = 0; i < n; ' +
        'i++) s += b; return s; }',
    );
    expect(rt.call('Join', ['x'])).toBe('x--');
    expect(rt.call('Join', ['x', '+'])).toBe('x++');
    expect(rt.call('Join', ['x', '+', 3])).toBe('x+++');
  });

  it('calls its own methods from expressions, recursively', () => {
    expect(run('return Fact(10);', 'long Fact(int n) { return n <= 1 ? 1 : n * Fact(n - 1); }')).toBe(3628800n);
  });

  it('runs the constructor after the field initialisers', () => {
    const rt = runtime('int a = 1; int b; public ReportScript() { b = a + 1; }');
    expect(rt.field('b')).toBe(2);
  });

  it('converts a value to the declared numeric type', () => {
    expect(run('double d = 3; return d;')).toBe(3);
    expect(str('decimal m = 3; m += 0.5m; return m;')).toBe('3.5');
    expect(run('int total = 0; total += 2; return total;')).toBe(2);
  });

  it('refuses a name declared twice in one block, allows it in sibling blocks', () => {
    expect(() => run('int x = 1; int x = 2; return x;')).toThrow(ScriptError);
    expect(run('{ int x = 1; } { int x = 2; } return 0;')).toBe(0);
  });

  it('reads and sets the report through the host', () => {
    const sets: Record<string, unknown> = {};
    const h = host({ 'Text1.Text': 'before', Rate: 2 }, sets);
    expect(run('Text1.Text = "after " + Rate; return 1;', '', h)).toBe(1);
    expect(sets['Text1.Text']).toBe('after 2');
    expect(() => run('Unknown.Thing = 1; return 1;', '', h)).toThrow(/cannot be assigned/);
  });

  it('uses this. for its own members', () => {
    expect(run('this.n = 4; return this.n + Twice(this.n);', 'int n; int Twice(int x) => x * 2;')).toBe(12);
  });
});

describe('control flow', () => {
  it.each([
    ['int s = 0; for (int i = 1; i <= 10; i++) s += i; return s;', 55],
    ['int s = 0; for (int i = 0; ; i++) { if (i == 5) break; s += i; } return s;', 10],
    ['int s = 0; for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; s += i; } return s;', 25],
    ['int i = 0; while (i < 100) i += 7; return i;', 105],
    ['int i = 0; do { i++; } while (i < 0); return i;', 1],
    ['int i = 10; while (true) { if (--i == 3) break; } return i;', 3],
    ['int s = 0; foreach (int v in new int[] { 1, 2, 3 }) s += v; return s;', 6],
    ['string r = ""; foreach (char c in "abc") r = c + r; return r;', 'cba'],
    ['if (1 > 2) return "a"; else if (2 > 1) return "b"; else return "c";', 'b'],
    ['int x = 0; if (x == 0) { x = 1; } return x;', 1],
    ['int s = 0; for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) { if (j == 2) break; s++; } return s;', 6],
    ['for (int i = 0; i < 10; i++) { if (i == 4) return i; } return -1;', 4],
    ['int i = 0; for (i = 0; i < 3; i++) { } return i;', 3],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it.each([
    [1, 'one'],
    [2, 'two or three'],
    [3, 'two or three'],
    [9, 'other'],
  ])('switch on %s → %s', (x, expected) => {
    const rt = runtime(
      'string S(int x) { string r; switch (x) { case 1: r = "one"; break; case 2: case 3: r = ' +
        '"two or three"; break; default: r = "other"; break; } return r; }',
    );
    expect(rt.call('S', [x])).toBe(expected);
  });

  it('switches on strings, and returns from inside a case', () => {
    const rt = runtime('int S(string s) { switch (s) { case "a": return 1; case "b": return 2; } return 0; }');
    expect([rt.call('S', ['a']), rt.call('S', ['b']), rt.call('S', ['c'])]).toEqual([1, 2, 0]);
  });

  it('scopes a loop variable to its loop', () => {
    expect(run('int s = 0; for (int i = 0; i < 2; i++) s++; for (int i = 0; i < 3; i++) s++; return s;')).toBe(5);
    // C#'s scope of a local is its whole block: the loop's i clashes with the later local i (CS0136).
    expect(() => run('for (int i = 0; i < 2; i++) { } int i = 9; return i;')).toThrow(/named 'i' cannot be declared/);
  });
});

describe('collections', () => {
  it.each([
    ['var l = new List<int>(); l.Add(3); l.Add(1); l.Add(2); l.Sort(); return l[0] * 100 + l[1] * 10 + l[2];', 123],
    ['var l = new List<string> { "a", "b" }; l.Insert(0, "z"); return l[0] + l.Count;', 'z3'],
    ['var l = new List<int> { 1, 2, 3 }; l.Remove(2); l.RemoveAt(0); return l[0];', 3],
    ['var l = new List<int> { 1, 2, 3 }; return l.Contains(2) && !l.Contains(5);', true],
    ['var l = new List<int> { 4, 5 }; return l.IndexOf(5);', 1],
    ['var l = new List<int> { 1, 2 }; l[1] = 7; return l[1];', 7],
    ['var l = new List<int> { 1, 2 }; l.Clear(); return l.Count;', 0],
    ['var l = new List<int> { 1, 2, 3 }; l.Reverse(); return l[0];', 3],
    ['var l = new List<int> { 1, 2 }; var a = l.ToArray(); return a.Length;', 2],
    ['var d = new Dictionary<string, int>(); d["a"] = 1; d["a"] += 5; return d["a"];', 6],
    ['var d = new Dictionary<string, int> { { "x", 1 }, { "y", 2 } }; return d.Count + d["y"];', 4],
    ['var d = new Dictionary<int, string>(); d.Add(1, "one"); return d.ContainsKey(1) && !d.ContainsKey(2);', true],
    [
      'var d = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }; int s = 0; foreach (var ' +
        'kv in d) s += kv.Value; return s;',
      3,
    ],
    [
      'var d = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }; string k = ""; foreach ' +
        '(string x in d.Keys) k += x; return k;',
      'ab',
    ],
    ['var d = new Dictionary<string, int>(); d.Add("a", 1); d.Remove("a"); return d.Count;', 0],
    ['int[] a = new int[3]; a[1] = 5; return a[0] + a[1] + a.Length;', 8],
    ['string[] a = { "x", "y" }; return a[1] + a.Length;', 'y2'],
    ['var a = new[] { 1, 2, 3 }; int s = 0; foreach (var v in a) s += v; return s;', 6],
    ['int[] a = new int[2]; return a[0];', 0],
    ['var h = new Hashtable(); h.Add("a", 1); return h.Contains("a") && h["b"] == null;', true],
    ['var h = new Hashtable(); h["x"] = 2; return h["x"];', 2],
    ['var l = new ArrayList(); l.Add("a"); l.Add(1); return l.Count;', 2],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it('fails clearly on a missing key, an index out of range, a duplicate key', () => {
    expect(() => run('var d = new Dictionary<string, int>(); return d["none"];')).toThrow(/given key was not present/);
    expect(() => run('var l = new List<int>(); return l[0];')).toThrow(/out of range/);
    expect(() => run('var d = new Dictionary<string, int>(); d.Add("a", 1); d.Add("a", 2); return 0;')).toThrow(
      /same key/,
    );
  });

  it('reports what a collection does not have', () => {
    expect(() => run('var l = new List<int>(); return l.Frobnicate();')).toThrow(/has no method 'Frobnicate'/);
    expect(() => run('var l = new List<int>(); return l.Capacity;')).toThrow(/has no property 'Capacity'/);
  });
});

describe('types and exceptions', () => {
  it.each([
    ['object o = "s"; return o is string;', true],
    ['object o = 1; return o is string;', false],
    ['object o = 1; return o is int;', true],
    ['object o = new List<int>(); return o is List<int>;', true],
    ['object o = "s"; return (o as string) + "!";', 's!'],
    ['object o = 1; return (o as string) == null;', true],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it('catches what it throws, by type, and runs finally', () => {
    expect(run('try { throw new Exception("boom"); } catch (Exception e) { return e.Message; }')).toBe('boom');
    expect(
      run(
        'string s = ""; try { s += "a"; throw new InvalidOperationException("x"); } catch ' +
          '(ArgumentException) { s += "wrong"; } catch (InvalidOperationException e) { s += "b" + ' +
          'e.Message; } finally { s += "c"; } return s;',
      ),
    ).toBe('abxc');
    expect(run('int x = 0; try { x = 1; } finally { x = 2; } return x;')).toBe(2);
  });

  it('catches the errors of operations (division by zero, a null reference, a bad cast)', () => {
    expect(run('int z = 0; try { return 1 / z; } catch (DivideByZeroException) { return -1; }')).toBe(-1);
    expect(run('try { return Convert.ToInt32("x"); } catch (Exception e) { return "caught"; }')).toBe('caught');
  });

  it('ends the render on an uncaught exception, naming the method and line', () => {
    expect(() => run('throw new Exception("nope");')).toThrow(
      /uncaught System.Exception: nope \(script method M, line 3\)/,
    );
  });
});

describe('limits', () => {
  const small: ScriptLimits = { maxSteps: 100_000, maxItems: 1_000, maxDepth: 50 };

  it('stops a loop that never ends, naming the method and line', () => {
    const rt = runtime('void Spin() {\n int i = 0;\n while (true) { i++; }\n}', host(), small);
    expect(() => rt.guard(() => rt.call('Spin', []))).toThrow(
      /more than 100000 steps \(script method Spin, line \d+\)/,
    );
  });

  it('a catch cannot swallow the step budget', () => {
    const rt = runtime(
      'void Spin() { while (true) { try { while (true) { } } catch (Exception e) { } } }',
      host(),
      small,
    );
    expect(() => rt.guard(() => rt.call('Spin', []))).toThrow(/steps/);
  });

  it('stops runaway allocation and deep recursion', () => {
    const rt = runtime(
      'void Grow() { var l = new List<int>(); while (true) l.Add(1); }\nint Deep(int n) { return ' +
        'Deep(n + 1); }\nvoid Big() { var a = new int[100000000]; }',
      host(),
      small,
    );
    expect(() => rt.guard(() => rt.call('Grow', []))).toThrow(/more than 1000 collection items/);
    expect(() => rt.guard(() => rt.call('Deep', [0]))).toThrow(/nest more than 50 deep/);
    expect(() => rt.guard(() => rt.call('Big', []))).toThrow(/collection items/);
  });

  it('calls only what it defines', () => {
    const rt = runtime('void A() { }');
    expect(() => rt.call('B', [])).toThrow(/no method B/);
    expect(() => run('return Nope(1);')).toThrow(/no method Nope/);
  });
});

describe('what a script can reach', () => {
  it.each([
    'return globalThis;',
    'return constructor;',
    'return "x".constructor;',
    'return __proto__;',
    'return process.env;',
    'return require("fs");',
    'var l = new List<int>(); return l.list;',
    'var l = new List<int>(); return l.budget;',
    'var l = new List<int>(); return l.constructor;',
  ])('%s fails without reaching JavaScript', (body) => {
    expect(() => run(body)).toThrow();
  });
});

describe('event handlers as values', () => {
  it('a method name or new EventHandler(M) is the method; += and -= change an event', async () => {
    const { EventSlot, ScriptDelegate } = await import('../../../src/report/script/delegates.js');
    const slot = new EventSlot('Done');
    const rt = runtime(
      `void OnDone(object sender, EventArgs e) { }
       object M() { Ev += new EventHandler(OnDone); Ev += OnDone; Ev -= OnDone; return 1; }`,
      { ...host(), resolve: (name) => (name === 'Ev' ? { value: slot } : undefined) },
    );
    expect(toPublic(rt.guard(() => rt.call('M', [])))).toBe(1);
    expect(slot.methods).toEqual(['OnDone']);
    expect(new ScriptDelegate('x').method).toBe('x');
    const bad = runtime('object M() { Ev += 5; return 1; }', {
      ...host(),
      resolve: (name) => (name === 'Ev' ? { value: slot } : undefined),
    });
    expect(() => bad.guard(() => bad.call('M', []))).toThrow(/takes an EventHandler/);
  });
});
