// The C# semantics of the report script interpreter, row by row: statements, scoping,
// methods, generic collections, numeric rules, strings and formatting, exceptions, type tests,
// DateTime and the null operators. Every expected value is what .NET (C#, en-US) gives for the
// same method body, not what the interpreter happened to print.
import { describe, expect, it } from 'vitest';
import { typeNameOf } from '../../../src/report/expr/type-names.js';
import { toPublic, type Value } from '../../../src/report/expr/values.js';
import { ScriptError, type ScriptHost, ScriptRuntime } from '../../../src/report/script/interpreter.js';
import { parseScript } from '../../../src/report/script/parser.js';

/** A host with no report: every name a script does not define is unknown. */
const host: ScriptHost = { convertNulls: true, resolve: () => undefined, assign: () => false };

/** `class ReportScript { members }`, parsed (nothing refused) and initialised. */
function runtime(members: string): ScriptRuntime {
  const program = parseScript(`public class ReportScript {\n${members}\n}`);
  const refused = program.methods.filter((m) => m.refused);
  if (refused.length) throw new Error(refused.map((m) => m.refused).join('; '));
  const rt = new ScriptRuntime(program, host);
  rt.guard(() => rt.init());
  return rt;
}

/** The interpreter's value of `object M() { body }`, `extra` being more members of the class. */
function value(body: string, extra = ''): Value {
  const rt = runtime(`${extra}\nobject M() { ${body} }`);
  return rt.guard(() => rt.call('M', []));
}

/** A public value made comparable: a decimal (or any other boxed value) as its text. */
function shown(v: Value): unknown {
  const p = toPublic(v);
  return p !== null && typeof p === 'object' ? String(p) : p;
}

/** What M() returns. */
const run = (body: string, extra = ''): unknown => shown(value(body, extra));

/** What M() returns with its .NET type, where the type is the point (int vs double vs decimal). */
function typed(body: string): [string, unknown] {
  const v = value(body);
  return [typeNameOf(v), shown(v)];
}

/** Calls a method of `members` with arguments. */
function call(members: string, name: string, args: Value[]): unknown {
  const rt = runtime(members);
  return shown(rt.guard(() => rt.call(name, args)));
}

describe('statements', () => {
  const grade =
    'string Grade(int n) { if (n >= 90) return "A"; else if (n >= 80) return "B"; ' +
    'else if (n >= 70) return "C"; else return "F"; }';
  it.each<[number, string]>([
    [95, 'A'],
    [90, 'A'],
    [89, 'B'],
    [70, 'C'],
    [69, 'F'],
    [-5, 'F'],
  ])('an if/else if chain grades %s as %s', (n, expected) => {
    expect(call(grade, 'Grade', [n])).toBe(expected);
  });

  const day =
    'string Day(int d) { switch (d) { case 0: case 6: return "weekend"; case 3: return "midweek"; ' +
    'default: return "weekday"; } }';
  it.each<[number, string]>([
    [0, 'weekend'],
    [6, 'weekend'],
    [3, 'midweek'],
    [1, 'weekday'],
    [7, 'weekday'],
  ])('switch on int: Day(%s) is %s', (d, expected) => {
    expect(call(day, 'Day', [d])).toBe(expected);
  });

  const code =
    'int Code(string s) { int r; switch (s) { case "red": r = 1; break; case "green": case "GREEN": ' +
    'r = 2; break; default: r = -1; break; } return r; }';
  it.each<[string | null, number]>([
    ['red', 1],
    ['green', 2],
    ['GREEN', 2],
    ['Red', -1],
    ['', -1],
    [null, -1],
  ])('switch on string: Code(%s) is %s', (s, expected) => {
    expect(call(code, 'Code', [s])).toBe(expected);
  });

  const kind =
    "string Kind(char c) { switch (c) { case 'a': case 'e': case 'o': return \"vowel\"; " +
    'case \' \': return "space"; default: return "other"; } }';
  it.each<[string, string]>([
    ['a', 'vowel'],
    ['o', 'vowel'],
    [' ', 'space'],
    ['x', 'other'],
    ['A', 'other'],
  ])("switch on char: Kind('%s') is %s", (c, expected) => {
    expect(run(`return Kind('${c}');`, kind)).toBe(expected);
  });

  it.each<[string, unknown]>([
    ['int s = 0; for (int i = 0; i < 5; i++) { switch (i) { case 2: continue; } s += i; } return s;', 8],
    ['int s = 0; int i = 0; while (true) { switch (i) { case 3: break; } if (i++ > 5) break; s++; } return s;', 6],
    ['int s = 0; int i = 0; do { i++; if (i % 2 == 0) continue; s += i; } while (i < 7); return s;', 16],
    ['int i = 0; while (i < 10) { i++; if (i < 5) continue; break; } return i;', 5],
    ['int n = 0; while (n * n < 50) n++; return n;', 8],
    ['int n = 0; int i = 0; do { n++; } while (++i < 3); return n * 10 + i;', 33],
    ['int i = 10; do { i--; } while (i > 20); return i;', 9],
    ['int s = 0; for (int i = 10; i > 0; i -= 3) s += i; return s;', 22],
    ['string r = ""; for (int i = 0, j = 10; i < j; i += 3, j -= 3) r += i + ":" + j + " "; return r;', '0:10 3:7 '],
    ['int n = 1; for (;;) { n *= 2; if (n > 100) break; } return n;', 128],
    ['int c = 0; for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) { if (j > i) break; c++; } return c;', 10],
    [
      'int c = 0; for (int i = 0; i < 3; i++) { for (int j = 0; j < 3; j++) { if (j == 1) continue; ' +
        'c += 10; } c++; } return c;',
      63,
    ],
    [
      'int found = -1; for (int i = 0; i < 5 && found < 0; i++) for (int j = 0; j < 5; j++) ' +
        'if (i * j == 6) { found = i * 10 + j; break; } return found;',
      23,
    ],
    [
      'for (int i = 1; i < 10; i++) for (int j = 1; j < 10; j++) if (i * j == 12) return i + "x" + j; ' +
        'return "none";',
      '2x6',
    ],
    ['int x = 5; if (x > 3) if (x > 10) return "a"; else return "b"; return "c";', 'b'],
  ])('loops and jumps: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['int[] a = { 3, 1, 2 }; int m = a[0]; foreach (int v in a) if (v < m) m = v; return m;', 1],
    [
      'var l = new List<string> { "a", "b", "c" }; string r = ""; foreach (string s in l) { ' +
        'if (s == "b") continue; r += s; } return r;',
      'ac',
    ],
    [
      'var l = new List<int> { 1, 2, 3, 4 }; int r = 0; foreach (var v in l) { if (v == 3) break; r += v; } return r;',
      3,
    ],
    [
      'var d = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }; string r = ""; ' +
        'foreach (KeyValuePair<string, int> kv in d) r += kv.Key + "=" + kv.Value + ";"; return r;',
      'a=1;b=2;',
    ],
    [
      'var d = new Dictionary<string, int> { { "x", 5 } }; foreach (var kv in d) return kv.Key + kv.Value; return "";',
      'x5',
    ],
    [
      'var d = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }; int s = 0; ' +
        'foreach (int v in d.Values) s += v; return s;',
      3,
    ],
    ['int n = 0; foreach (char c in "hello") if (c == \'l\') n++; return n;', 2],
    ['string r = ""; foreach (char c in "abc") r += (char)(c + 1); return r;', 'bcd'],
    ['foreach (char c in "ab1c") if (char.IsDigit(c)) return c; return \'?\';', '1'],
    ['string r = ""; foreach (string w in "a b c".Split(\' \')) r = w + r; return r;', 'cba'],
    ['int s = 0; foreach (int a in new[] { 1, 2 }) foreach (int b in new[] { 10, 20 }) s += a * b; return s;', 90],
    ['int n = 0; foreach (var x in new List<int>()) n++; return n;', 0],
  ])('foreach: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('scoping and methods', () => {
  it.each<[string, string, unknown]>([
    ['int s = 0; for (int i = 0; i < 3; i++) { int k = 1; k += i; s += k; } return s;', '', 6],
    ['int s = 0; for (int i = 0; i < 3; i++) s += i; for (int i = 5; i < 7; i++) s += i; return s;', '', 14],
    ['int i = 0; int s = 0; for (; i < 4; i++) s += i; return i * 10 + s;', '', 46],
    ['Bump(); Bump(); return counter;', 'int counter; void Bump() { counter++; }', 2],
    ['int counter = 100; Bump(); return counter;', 'int counter; void Bump() { counter++; }', 100],
    [
      'Bump(); return Get();',
      'int counter = 5; void Bump() { int counter = 100; counter++; } int Get() { return counter; }',
      5,
    ],
    ['Set(); return name;', 'string name = "old"; void Set() { name = "new"; }', 'new'],
    ['int x = 1; Bump(x); return x;', 'void Bump(int x) { x++; }', 1],
    ['var l = new List<int>(); Fill(l); return l.Count;', 'void Fill(List<int> l) { l.Add(1); l.Add(2); }', 2],
    ['int[] a = { 1, 2 }; Zero(a); return a[0] + a[1];', 'void Zero(int[] xs) { xs[0] = 0; }', 2],
    ['return P(1) + "," + P(1, 5);', 'string P(int a, int b = 10) { return (a + b).ToString(); }', '11,6'],
    ['return Greet("x") + Greet("y", "!");', 'string Greet(string n, string p = "?") { return n + p; }', 'x?y!'],
    ['return Sum(1, 2) + Sum(4);', 'int Sum(int a, int b = 10) => a + b;', 17],
    ['return F(3);', 'double F(double x, double y = 0.5) { return x * y; }', 1.5],
    [
      'return Add(1) + Add(1, 2) + Add(1, 2, 3);',
      'int Add(int a) { return a * 100; } int Add(int a, int b) { return a + b; } ' +
        'int Add(int a, int b, int c) { return a + b + c + 1000; }',
      1109,
    ],
    ['return Half(5);', 'double Half(double d) { return d / 2; }', 2.5],
    ['return Half(5);', 'int Half(int d) { return d / 2; }', 2],
    ['return Sq(3);', 'static int Sq(int x) { return x * x; }', 9],
    ['return K * 2;', 'const int K = 7;', 14],
    ['return R + R;', 'readonly string R = "r";', 'rr'],
    ['return data.Length;', 'int[] data = { 1, 2, 3 };', 3],
    ['names.Add("b"); return names.Count;', 'List<string> names = new List<string> { "a" };', 2],
    ['return F();', 'int a = 2; int b = 3; int c; int F() { c = a * b; return c; }', 6],
    ['return Fib(15);', 'int Fib(int n) { return n < 2 ? n : Fib(n - 1) + Fib(n - 2); }', 610],
    ['return Fact(5);', 'int Fact(int n) { if (n <= 1) return 1; return n * Fact(n - 1); }', 120],
    ['return Pow2(40);', 'long Pow2(int n) => n == 0 ? 1L : 2 * Pow2(n - 1);', 1099511627776n],
    ['return Gcd(48, 18);', 'int Gcd(int a, int b) => b == 0 ? a : Gcd(b, a % b);', 6],
    ['return Rev("abc");', 'string Rev(string s) { return s.Length <= 1 ? s : Rev(s.Substring(1)) + s[0]; }', 'cba'],
    [
      'return IsEven(10) && !IsEven(7);',
      'bool IsEven(int n) { if (n == 0) return true; return IsOdd(n - 1); } ' +
        'bool IsOdd(int n) { if (n == 0) return false; return IsEven(n - 1); }',
      true,
    ],
    [
      'var l = new List<int>(); Collect(l, 4); return l.Count + ":" + l[0] + l[3];',
      'void Collect(List<int> l, int n) { if (n == 0) return; Collect(l, n - 1); l.Add(n); }',
      '4:14',
    ],
    ['var v = 5; v /= 2; return v;', '', 2],
    ['var s = "5"; s += 1; return s;', '', '51'],
    ['var d = 5.0; d /= 2; return d;', '', 2.5],
  ])('%s [%s] → %s', (body, extra, expected) => {
    expect(run(body, extra)).toEqual(expected);
  });

  it.each<[string, string, RegExp]>([
    ['{ int k = 1; } return k;', '', /unknown name "k"/],
    ['for (int i = 0; i < 2; i++) { } return i;', '', /unknown name "i"/],
    ['foreach (int v in new int[] { 1 }) { } return v;', '', /unknown name "v"/],
    ['int y = x + 1; int x = 1; return y;', '', /unknown name "x"/],
    ['return F(1, 2);', 'int F(int a, int a) { return a; }', /'a' is already declared/],
    ['return F(1, 2, 3);', 'int F(int a, int b = 0) { return a + b; }', /no method F taking 3 arguments/],
  ])('C# refuses %s [%s]', (body, extra, message) => {
    expect(() => run(body, extra)).toThrow(ScriptError);
    expect(() => run(body, extra)).toThrow(message);
  });
});

describe('generic collections', () => {
  it.each<[string, unknown]>([
    ['var l = new List<int>(); l.Add(5); l.Add(6); return l.Count * 100 + l[0] * 10 + l[1];', 256],
    ['var l = new List<int> { 1 }; l.AddRange(new int[] { 2, 3 }); return l.Count;', 3],
    ['var l = new List<int> { 1 }; l.AddRange(new List<int> { 2, 3 }); return l[2];', 3],
    ['var l = new List<int> { 1 }; l.Insert(1, 3); return l[1];', 3],
    ['var l = new List<string> { "a", "c" }; l.Insert(1, "b"); return l[0] + l[1] + l[2];', 'abc'],
    ['var l = new List<int> { 1, 2, 1 }; return l.Remove(1) && l[0] == 2 && l.Count == 2;', true],
    ['var l = new List<int> { 1, 2 }; return l.Remove(5);', false],
    ['var l = new List<int> { 1, 2, 3 }; l.RemoveAt(1); return l[0] * 10 + l[1];', 13],
    ['var l = new List<int> { 1, 2, 3 }; return l.Contains(4);', false],
    ['var l = new List<string> { "a" }; return l.Contains("A");', false],
    ['var l = new List<string> { "x", "y" }; return l.IndexOf("y");', 1],
    ['var l = new List<int> { 5, 6 }; return l.IndexOf(9);', -1],
    [
      'var l = new List<int> { 10, 9, 100, 1 }; l.Sort(); return l[0] + "," + l[1] + "," + l[2] + "," + l[3];',
      '1,9,10,100',
    ],
    ['var l = new List<string> { "b", "c", "a" }; l.Sort(); return l[0] + l[1] + l[2];', 'abc'],
    ['var l = new List<decimal> { 2.5m, 1.5m, 3m }; l.Sort(); return l[0];', '1.5'],
    ['var l = new List<int> { 4, 5 }; l.Reverse(); return l[0] * 10 + l[1];', 54],
    ['var l = new List<int> { 1, 2 }; l.Clear(); l.Add(9); return l.Count * 10 + l[0];', 19],
    ['var l = new List<int> { 1, 2, 3 }; l[0] += 10; return l[0];', 11],
    ['var l = new List<int> { 1, 2, 3 }; l[1]++; return l[1];', 3],
    ['var l = new List<int> { 1, 2, 3 }; int s = 0; for (int i = 0; i < l.Count; i++) s += l[i]; return s;', 6],
    ['var l = new List<int> { 1, 2, 3 }; var l2 = l; l2.Add(4); return l.Count;', 4],
    ['var l = new List<int> { 3, 1, 2 }; var copy = new List<int>(l); copy.Sort(); return l[0] * 10 + copy[0];', 31],
    ['var l = new List<int> { 1 }; var a = l.ToArray(); l.Add(2); return a.Length * 10 + l.Count;', 12],
    ['var l = new List<string>(); l.Add(null); return l.Count;', 1],
    ['var a = new ArrayList(); a.Add(1); a.Add("x"); return a[1];', 'x'],
  ])('List: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  // .NET says "Index was out of range…" for the indexer and RemoveAt; Insert has its own message.
  it.each<[string, RegExp]>([
    ['var l = new List<int> { 1, 2, 3 }; return l[3];', /^AOOR: Index was out of range/],
    ['var l = new List<int> { 1, 2, 3 }; return l[-1];', /^AOOR: Index was out of range/],
    ['var l = new List<int> { 1 }; l[1] = 3; return 0;', /^AOOR: Index was out of range/],
    ['var l = new List<int> { 1 }; l.RemoveAt(1); return 0;', /^AOOR: Index was out of range/],
    ['var l = new List<int> { 1 }; l.Insert(2, 3); return 0;', /^AOOR: /],
  ])('List out of range throws a catchable ArgumentOutOfRangeException: %s', (body, message) => {
    const caught = `try { ${body} } catch (ArgumentOutOfRangeException e) { return "AOOR: " + e.Message; }`;
    expect(run(caught)).toMatch(message);
  });

  it.each<[string, unknown]>([
    ['var d = new Dictionary<string, int>(); d["a"] = 1; d["a"] = 2; return d["a"] * 10 + d.Count;', 21],
    ['var d = new Dictionary<string, int> { { "a", 1 } }; return d.Remove("a") + "," + d.Remove("a");', 'True,False'],
    [
      'var d = new Dictionary<string, int> { { "b", 1 }, { "a", 2 } }; string r = ""; ' +
        'foreach (var k in d.Keys) r += k; return r;',
      'ba',
    ],
    ['var d = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }; return d.Keys.Count + d.Values.Count;', 4],
    ['var d = new Dictionary<int, string> { { 1, "x" } }; return d[1];', 'x'],
    [
      'var d = new Dictionary<int, string>(); d[2] = "y"; return d.ContainsKey(2) + "," + d.ContainsValue("y");',
      'True,True',
    ],
    ['var d = new Dictionary<int, string>(); d[2] = "y"; return d.ContainsKey(3) || d.ContainsValue("Y");', false],
    ['var d = new Dictionary<int, int>(); for (int i = 0; i < 5; i++) d[i % 3] = i; return d.Count * 10 + d[1];', 34],
    [
      'var d = new Dictionary<string, int>(); foreach (string w in "a b a c a".Split(\' \')) { ' +
        'if (d.ContainsKey(w)) d[w]++; else d[w] = 1; } return d["a"] * 10 + d.Count;',
      33,
    ],
    ['var d = new Dictionary<string, List<int>>(); d["a"] = new List<int>(); d["a"].Add(5); return d["a"].Count;', 1],
    ['var d = new Dictionary<string, int>(); d.Add("x", 1); d.Clear(); return d.Count;', 0],
    [
      'var d = new Dictionary<string, int>(); try { int v = d["zz"]; return v; } ' +
        'catch (KeyNotFoundException) { return "KNF"; }',
      'KNF',
    ],
    [
      'var d = new Dictionary<string, int>(); d.Add("a", 1); try { d.Add("a", 2); return "no"; } ' +
        'catch (ArgumentException e) { ' +
        'return e.Message.StartsWith("An item with the same key has already been added"); }',
      true,
    ],
    [
      'var d = new Dictionary<string, int>(); string k = null; try { d[k] = 1; return "no"; } ' +
        'catch (ArgumentNullException) { return "ANE"; }',
      'ANE',
    ],
    ['var h = new Hashtable(); return h["missing"] == null;', true],
    ['var h = new Hashtable(); h["a"] = 1; h["a"] = 2; return h.Count * 10 + (int)h["a"];', 12],
    [
      'var h = new Hashtable(); h.Add("a", 1); try { h.Add("a", 2); return "no"; } ' +
        'catch (ArgumentException) { return "AE"; }',
      'AE',
    ],
    ['var h = new Hashtable(); h.Add("a", 1); return h.ContainsKey("a") && !h.ContainsKey("b");', true],
    ['var h = new Hashtable(); h[1] = "one"; return h[1] + "/" + (h["1"] == null);', 'one/True'],
  ])('Dictionary and Hashtable: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['int[] a = new int[3]; return a.Length;', 3],
    ['double[] a = new double[2]; return a[1] + 0.5;', 0.5],
    ['bool[] a = new bool[2]; return a[0];', false],
    ['string[] a = new string[2]; return a[0] == null;', true],
    ['decimal[] a = new decimal[1]; return a[0];', '0'],
    ['var a = new DateTime[1]; return a[0].ToString("yyyy-MM-dd");', '0001-01-01'],
    ['int[] a = { 5, 6, 7 }; return a[0] + a[1] + a[2];', 18],
    ['int[] a = new int[] { 5, 6, 7 }; return a.Length;', 3],
    ['string[] a = new string[] { "x", "y" }; return a[0] + a[1];', 'xy'],
    ['var a = new int[0]; return a.Length;', 0],
    ['int[] a = { 4, 5, 6 }; return a[a.Length - 1];', 6],
    ['int n = 4; var a = new int[n]; for (int i = 0; i < n; i++) a[i] = i * i; return a[3];', 9],
    ['int[] a = { 1, 2, 3 }; int[] b = a; b[0] = 9; return a[0];', 9],
    ['int[] a = { 1, 2, 3 }; a[2] *= 5; return a[2];', 15],
    ['int s = 0; int[] a = { 1, 2, 3 }; for (int i = a.Length - 1; i >= 0; i--) s = s * 10 + a[i]; return s;', 321],
    ['int[] a = new int[3]; try { a[3] = 1; return "no"; } catch (Exception e) { return "caught"; }', 'caught'],
    ['int n = -1; try { var a = new int[n]; return "no"; } catch (OverflowException) { return "OE"; }', 'OE'],
  ])('arrays: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('numeric semantics', () => {
  it.each<[string, string, unknown]>([
    ['return 7 / 2;', 'System.Int32', 3],
    ['return -7 / 2;', 'System.Int32', -3],
    ['return 10 / -4;', 'System.Int32', -2],
    ['return -7 % 3;', 'System.Int32', -1],
    ['return 7 % -3;', 'System.Int32', 1],
    ['return -10.5 % 3;', 'System.Double', -1.5],
    ['return 5.5 % 2;', 'System.Double', 1.5],
    ['return 10 / 3 * 3 + 10 % 3;', 'System.Int32', 10],
    ['int m = int.MaxValue; return m * 2;', 'System.Int32', -2],
    ['int m = int.MinValue; return m - 1;', 'System.Int32', 2147483647],
    ['int m = int.MinValue; return -m;', 'System.Int32', -2147483648],
    ['int x = 2147483647; x++; return x;', 'System.Int32', -2147483648],
    ['long n = 9223372036854775807; n++; return n;', 'System.Int64', -9223372036854775808n],
    ['return 7 / 2.0;', 'System.Double', 3.5],
    ['int i = 5; double d = i / 2; return d;', 'System.Double', 2],
    ['int i = 5; return i / 2 * 2.0;', 'System.Double', 4],
    ['int a = 3, b = 4; return a * 1.0 / b;', 'System.Double', 0.75],
    ['return 5 / 2 + 5 % 2 + 5.0 / 2;', 'System.Double', 5.5],
    ['long l = 5; int i = 2; return l * i;', 'System.Int64', 10n],
    ['return 2147483647 * 2L;', 'System.Int64', 4294967294n],
    ['float f = 1.5f; return f * 2;', 'System.Single', 3],
    ['return 1.0 / 3;', 'System.Double', 0.3333333333333333],
    ['return 0.1 + 0.2;', 'System.Double', 0.30000000000000004],
    ['return 0.1m + 0.2m;', 'System.Decimal', '0.3'],
    ['return 1m / 4m * 4m;', 'System.Decimal', '1.00'],
    ['return 10m / 3m;', 'System.Decimal', '3.3333333333333333333333333333'],
    ['return 1.10m + 2.205m;', 'System.Decimal', '3.305'],
    ['return 1.0m * 3;', 'System.Decimal', '3.0'],
    ['return 10m / 4;', 'System.Decimal', '2.5'],
    ['decimal m = 7; return m % 3;', 'System.Decimal', '1'],
    ['double d = -3.9; return (int)d;', 'System.Int32', -3],
    ['decimal m = 3.99m; return (int)m;', 'System.Int32', 3],
    ['decimal m = -3.99m; return (int)m;', 'System.Int32', -3],
    ['double d = 3.5; return (long)d;', 'System.Int64', 3n],
    ['return (long)2.9e9;', 'System.Int64', 2900000000n],
    ['double d = 2.5; return (decimal)d;', 'System.Decimal', '2.5'],
    ['decimal m = 2.5m; return (double)m * 2;', 'System.Double', 5],
    ['return (char)65;', 'System.Char', 'A'],
    ["return (int)'A';", 'System.Int32', 65],
    ["return 'a' + 1;", 'System.Int32', 98],
    ["char c = 'a'; return c + c;", 'System.Int32', 194],
    ["return 'z' - 'a';", 'System.Int32', 25],
    ["return 1 + '1';", 'System.Int32', 50],
    ["return (char)('a' + 2);", 'System.Char', 'c'],
    ["char c = 'a'; c++; return c;", 'System.Char', 'b'],
    ["char c = 'A'; c += (char)2; return c;", 'System.Char', 'C'],
  ])('arithmetic and casts: %s → %s %s', (body, type, expected) => {
    expect(typed(body)).toEqual([type, expected]);
  });

  it.each<[string, string, unknown]>([
    ['return Math.Round(2.5);', 'System.Double', 2],
    ['return Math.Round(3.5);', 'System.Double', 4],
    ['return Math.Round(-2.5);', 'System.Double', -2],
    ['return Math.Round(0.5);', 'System.Double', 0],
    ['return Math.Round(2.5, MidpointRounding.AwayFromZero);', 'System.Double', 3],
    ['return Math.Round(2.5m);', 'System.Decimal', '2'],
    ['return Math.Round(2.345m, 2);', 'System.Decimal', '2.34'],
    ['return Math.Round(2.355m, 2);', 'System.Decimal', '2.36'],
    ['return Math.Floor(-2.5);', 'System.Double', -3],
    ['return Math.Ceiling(-2.5);', 'System.Double', -2],
    ['return Math.Floor(2.7);', 'System.Double', 2],
    ['return Math.Ceiling(2.1);', 'System.Double', 3],
    ['return Math.Floor(-2.1m);', 'System.Decimal', '-3'],
    ['return Math.Truncate(-2.7);', 'System.Double', -2],
    ['return Math.Abs(-5);', 'System.Int32', 5],
    ['return Math.Abs(-2.5);', 'System.Double', 2.5],
    ['return Math.Abs(-2.5m);', 'System.Decimal', '2.5'],
    ['int m = int.MinValue; return Math.Abs((long)m);', 'System.Int64', 2147483648n],
    ['return Math.Max(1.5, 2);', 'System.Double', 2],
    ['return Math.Min(-1, -2);', 'System.Int32', -2],
    ['return Math.Sign(-5);', 'System.Int32', -1],
    ['return Math.Pow(2, 10);', 'System.Double', 1024],
    ['return Math.Pow(10, -2);', 'System.Double', 0.01],
    ['return Math.Sqrt(16);', 'System.Double', 4],
    ['return Math.Sqrt(2) * Math.Sqrt(2) == 2;', 'System.Boolean', false],
    ['return double.IsNaN(Math.Sqrt(-1));', 'System.Boolean', true],
    ['return Convert.ToInt32("-42");', 'System.Int32', -42],
    ['return Convert.ToInt32(2.5);', 'System.Int32', 2],
    ['return Convert.ToInt32(3.5);', 'System.Int32', 4],
    ['return Convert.ToInt32(-2.5);', 'System.Int32', -2],
    ['return Convert.ToInt32(2.6);', 'System.Int32', 3],
    ['return Convert.ToInt32(2.5m);', 'System.Int32', 2],
    ['return Convert.ToInt32(true);', 'System.Int32', 1],
    ['return Convert.ToDouble("2.5") * 2;', 'System.Double', 5],
    ['return Convert.ToDecimal("1.10");', 'System.Decimal', '1.10'],
    ['return Convert.ToBoolean("true");', 'System.Boolean', true],
    ['return int.Parse("-17");', 'System.Int32', -17],
    ['return int.Parse("  12 ");', 'System.Int32', 12],
    ['return double.Parse("1.5e2");', 'System.Double', 150],
    ['return decimal.Parse("3.50");', 'System.Decimal', '3.50'],
    ['return long.Parse("9000000000");', 'System.Int64', 9000000000n],
  ])('Math, Convert and Parse: %s → %s %s', (body, type, expected) => {
    expect(typed(body)).toEqual([type, expected]);
  });

  it.each<[string, string, unknown]>([
    ['int i = 10; i /= 3; return i;', 'System.Int32', 3],
    ['int i = 10; i -= 15; return i;', 'System.Int32', -5],
    ['int i = 7; i %= -4; return i;', 'System.Int32', 3],
    ['int i = 5; i += 2.7 > 0 ? 1 : 0; return i;', 'System.Int32', 6],
    ['double d = 10; d /= 4; return d;', 'System.Double', 2.5],
    ['double d = 1.5; d *= 2; d -= 0.5; return d;', 'System.Double', 2.5],
    ['long n = 10; n *= 3; n /= 4; return n;', 'System.Int64', 7n],
    ['long n = 10; n %= 4; return n;', 'System.Int64', 2n],
    ['decimal m = 10; m /= 4; return m;', 'System.Decimal', '2.5'],
    ['decimal m = 1.1m; m *= 3; return m;', 'System.Decimal', '3.3'],
    ['decimal m = 100; m -= 0.01m; return m;', 'System.Decimal', '99.99'],
    ['var m = 5m; m /= 2; return m;', 'System.Decimal', '2.5'],
    ['float f = 0.1f; f += 0.2f; return f == 0.3f;', 'System.Boolean', true],
    ['int i = 1; int j = i++ + i++; return j * 10 + i;', 'System.Int32', 33],
    ['int i = 3; int j = i-- - --i; return j * 10 + i;', 'System.Int32', 21],
    ['int i = 1; i += i++ + ++i; return i;', 'System.Int32', 5],
    ['double d = 1.5; d++; return d;', 'System.Double', 2.5],
    ['decimal m = 1.5m; m--; return m;', 'System.Decimal', '0.5'],
    ['long n = 1; return n++ + n;', 'System.Int64', 3n],
    ['return 7 & 3 | 8;', 'System.Int32', 11],
    ['return 1 << 33;', 'System.Int32', 2],
    ['return -8 >> 1;', 'System.Int32', -4],
    ['return ~5;', 'System.Int32', -6],
    ['return 5 ^ 3;', 'System.Int32', 6],
  ])('compound assignments, ++/-- and bit operators: %s → %s %s', (body, type, expected) => {
    expect(typed(body)).toEqual([type, expected]);
  });

  it.each<[string, unknown]>([
    ['return 0.1m + 0.2m == 0.3m;', true],
    ['return 0.1 + 0.2 == 0.3;', false],
    ['return 1m == 1.0m;', true],
    ['return 3 == 3.0;', true],
    ['return 5 > 4.5;', true],
    ["return 'a' < 'b';", true],
    ['byte b = 255; b++; return b;', 0],
    ['int n = 300; return (byte)n;', 44],
    ['short s = 32767; s++; return s;', -32768],
    ['int z = 0; try { return 1 / z; } catch (DivideByZeroException) { return "DBZ"; }', 'DBZ'],
    ['int z = 0; try { return 5 % z; } catch (DivideByZeroException) { return "DBZ"; }', 'DBZ'],
    ['decimal z = 0; try { return 5m / z; } catch (DivideByZeroException) { return "DBZ"; }', 'DBZ'],
    ['double z = 0; return double.IsPositiveInfinity(1 / z);', true],
    ['double z = 0; return double.IsNegativeInfinity(-1 / z);', true],
    ['double z = 0; return double.IsNaN(0 / z);', true],
    ['double big = 1e308; return double.IsPositiveInfinity(big * 10);', true],
    ['try { return int.Parse("2147483648"); } catch (OverflowException) { return "OE"; }', 'OE'],
    ['try { return int.Parse("abc"); } catch (FormatException) { return "FE"; }', 'FE'],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('strings', () => {
  it.each<[string, unknown]>([
    ['return "hello".Substring(1, 3);', 'ell'],
    ['return "abc".Substring(0, 0).Length;', 0],
    ['try { return "abc".Substring(5); } catch (ArgumentOutOfRangeException) { return "AOOR"; }', 'AOOR'],
    ['try { return "abc".Substring(1, 5); } catch (ArgumentOutOfRangeException) { return "AOOR"; }', 'AOOR'],
    ['return "hello".IndexOf(\'l\');', 2],
    ['return "hello".IndexOf("lo");', 3],
    ['return "hello".IndexOf("z");', -1],
    ['return "hello world".IndexOf(\'o\', 5);', 7],
    ['return "Mississippi".IndexOf("ss", 3);', 5],
    ['return "Hello".IndexOf("L");', -1],
    ['return "hello".LastIndexOf(\'l\');', 3],
    ['return "abcabc".LastIndexOf("bc");', 4],
    ['return "a-b-c".Replace("-", "+");', 'a+b+c'],
    ["return \"a-b-c\".Replace('-', '.');", 'a.b.c'],
    ['return "aaa".Replace("a", "bb");', 'bbbbbb'],
    ['return "a b c".Replace(" ", string.Empty);', 'abc'],
    ['return "Hello".ToUpper() + "Hello".ToLower();', 'HELLOhello'],
    ['return "tEST".Substring(0, 1).ToUpper() + "tEST".Substring(1).ToLower();', 'Test'],
    ['return "  x  ".Trim() + "|";', 'x|'],
    ['return "  x  ".TrimStart() + "|";', 'x  |'],
    ['return "  x  ".TrimEnd() + "|";', '  x|'],
    ['return "xxaxx".Trim(\'x\');', 'a'],
    ['return "  a  b  ".Trim().Length;', 4],
    ['return "Hello".StartsWith("He") && !"Hello".StartsWith("he");', true],
    ['return "Hello".EndsWith("lo");', true],
    ['return "Hello".Contains("ell") && !"Hello".Contains("elo");', true],
    ['return "abc".Contains(\'b\');', true],
    ['return "ab".Contains("");', true],
    ['return "a,b,,c".Split(\',\').Length;', 4],
    ['string[] p = "a,b,c".Split(\',\'); return p[2];', 'c'],
    ["return \"a,b;c\".Split(',', ';')[2];", 'c'],
    ['return string.Join("|", "x", "y");', 'x|y'],
    ['return string.Join("", "a", "b", "c");', 'abc'],
    ['return String.Concat("a", 1, \'c\');', 'a1c'],
    ['return "7".PadLeft(3, \'0\');', '007'],
    ['return "ab".PadRight(4) + "|";', 'ab  |'],
    ['return "ab".PadLeft(4) + "|";', '  ab|'],
    ['return "abc".PadLeft(2);', 'abc'],
    ['return "abc".Insert(1, "X");', 'aXbc'],
    ['return "abcdef".Remove(2);', 'ab'],
    ['return "abcdef".Remove(1, 2);', 'adef'],
    ['return "hello".Length + string.Empty.Length;', 5],
    ['return "hello"[1];', 'e'],
    ['try { char c = "abc"[5]; return c; } catch (IndexOutOfRangeException) { return "IOOR"; }', 'IOOR'],
    ['string s = null; try { return s.Length; } catch (NullReferenceException) { return "NRE"; }', 'NRE'],
    ['return "abc".ToCharArray().Length;', 3],
    ['string s = "abc"; string r = ""; for (int i = s.Length - 1; i >= 0; i--) r += s[i]; return r;', 'cba'],
    ['string t = "ab"; t += \'c\'; t += 1; return t;', 'abc1'],
  ])('string methods: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['return string.IsNullOrEmpty("") && string.IsNullOrEmpty(null) && !string.IsNullOrEmpty(" ");', true],
    ['string s = null; return string.IsNullOrEmpty(s);', true],
    ['return string.IsNullOrWhiteSpace("  ") && !string.IsNullOrWhiteSpace(" x ");', true],
    ['string s = null; return "a" + s + "b";', 'ab'],
    ['string s = null; return (s + "").Length;', 0],
    ['return "a" + 1 + 2;', 'a12'],
    ['return 1 + 2 + "a";', '3a'],
    ['return "10" + 5 * 2;', '1010'],
    ['return "x" + 1.5;', 'x1.5'],
    ['return "x" + \'c\';', 'xc'],
    ['return "1" + \'1\';', '11'],
    ['return "x" + true;', 'xTrue'],
    ['return "val: " + 2.50m;', 'val: 2.50'],
    ['return "d: " + 1.0;', 'd: 1'],
    ['return "n: " + null;', 'n: '],
    ['string a = "ab"; string b = "a"; b += "b"; return a == b;', true],
    ['return "abc" != "ABC";', true],
    ['return "Ab".Equals("ab");', false],
    ['return "abc".Equals("ABC", StringComparison.OrdinalIgnoreCase);', true],
    ['return string.Compare("a", "b") < 0 && string.Compare("b", "a") > 0;', true],
    ['return string.Compare("a", "B") < 0;', true],
    ['return string.Compare("abc", "ABC", true);', 0],
    ['return "abc".CompareTo("abd") < 0;', true],
  ])('null, concatenation and comparison: %s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['return 42.ToString("D5");', '00042'],
    ['return (-5).ToString("D3");', '-005'],
    ['return 1234567.ToString("N0");', '1,234,567'],
    ['return 255.ToString("X");', 'FF'],
    ['return 255.ToString("x4");', '00ff'],
    ['return 5.ToString("00");', '05'],
    ['return 1234.5m.ToString("N2");', '1,234.50'],
    ['return 1234.5m.ToString("F3");', '1234.500'],
    ['return 12.5m.ToString("C");', '$12.50'],
    ['return 100m.ToString("0.##");', '100'],
    ['return 1.50m.ToString();', '1.50'],
    ['return 3.14159.ToString("F2");', '3.14'],
    ['return 1234.5678.ToString("#,##0.00");', '1,234.57'],
    ['return 0.5.ToString("0%");', '50%'],
    ['return (1.0).ToString();', '1'],
    ['return (1e20).ToString();', '1E+20'],
    ['return 1e-7.ToString();', '1E-07'],
    ['return (2.0 / 3).ToString();', '0.6666666666666666'],
    ['return long.MaxValue.ToString();', '9223372036854775807'],
    ['return true.ToString();', 'True'],
    ['return String.Format("{0}-{1}", "a", 2);', 'a-2'],
    ['return String.Format("{1}{0}", "a", "b");', 'ba'],
    ['return String.Format("{0} + {0} = {1}", 2, 4);', '2 + 2 = 4'],
    ['return String.Format("[{0,5}]", 42);', '[   42]'],
    ['return String.Format("[{0,-5}]", 42);', '[42   ]'],
    ['return String.Format("{0:N2}", 1234.567);', '1,234.57'],
    ['return String.Format("{0:N2}|{1,5}|{2,-4}|", 1234.5m, "ab", 7);', '1,234.50|   ab|7   |'],
    ['return String.Format("{0,8:N1}", 1234.56);', ' 1,234.6'],
    ['return String.Format("{0:D4}", 42);', '0042'],
    ['return String.Format("{0:0.00}", 3.14159);', '3.14'],
    ['return String.Format("{0:F1}", 2.25m);', '2.3'],
    ['return String.Format("{{{0}}}", 5);', '{5}'],
    ['return String.Format("{0:X2}", 10);', '0A'],
    ['return String.Format("{0:E2}", 12345.0);', '1.23E+004'],
    ['return String.Format("{0:C2}", 3.5);', '$3.50'],
  ])('formatting: %s → %s', (body, expected) => {
    expect(run(body)).toBe(expected);
  });
});

describe('exceptions', () => {
  it.each<[string, string, unknown]>([
    ['try { throw new FormatException("bad"); } catch (Exception e) { return e.Message; }', '', 'bad'],
    ['try { throw new ArgumentNullException("p"); } catch (ArgumentNullException) { return "ANE"; }', '', 'ANE'],
    [
      'try { throw new NotSupportedException("ns"); } catch (NotImplementedException) { return "wrong"; } ' +
        'catch (Exception e) { return "right " + e.Message; }',
      '',
      'right ns',
    ],
    [
      'try { throw new System.ArgumentException("q"); } catch (System.ArgumentException e) { return e.Message; }',
      '',
      'q',
    ],
    ['var e = new Exception("m"); try { throw e; } catch (Exception x) { return x.Message; }', '', 'm'],
    ['string r = ""; try { r += "t"; return r; } finally { r += "f"; }', '', 't'],
    [
      'return F();',
      'string log = ""; int G() { try { return 1; } finally { log += "f"; } } ' +
        'string F() { int v = G(); return log + v; }',
      'f1',
    ],
    [
      'return F();',
      'string s = ""; string F() { try { return G(); } finally { s += "!"; } } ' +
        'string G() { try { throw new Exception("g"); } catch (Exception e) { return e.Message + s; } }',
      'g',
    ],
    [
      'string s = ""; try { try { throw new Exception("in"); } finally { s += "f1"; } } ' +
        'catch (Exception e) { s += e.Message; } return s;',
      '',
      'f1in',
    ],
    [
      'string s = ""; try { try { throw new InvalidOperationException("x"); } ' +
        'catch (ArgumentException) { s += "no"; } } ' +
        'catch (InvalidOperationException e) { s += "outer " + e.Message; } return s;',
      '',
      'outer x',
    ],
    [
      'string s = ""; try { try { throw new Exception("x"); } catch (Exception e) { s += "c1"; throw e; } } ' +
        'catch (Exception e) { s += e.Message; } return s;',
      '',
      'c1x',
    ],
    [
      'string s = ""; try { try { throw new Exception("x"); } catch (Exception e) { s += "c1"; ' +
        'throw new InvalidOperationException("wrapped " + e.Message); } finally { s += "f"; } } ' +
        'catch (InvalidOperationException e) { s += e.Message; } return s;',
      '',
      'c1fwrapped x',
    ],
    [
      'string s = ""; try { throw new Exception("a"); } catch (Exception e) { try { throw new Exception("b"); } ' +
        'catch (Exception e2) { s = e.Message + e2.Message; } } return s;',
      '',
      'ab',
    ],
    ['int n = 0; try { n = 1; throw new Exception("e"); } catch { n += 10; } return n;', '', 11],
    [
      'string s = ""; try { try { throw new Exception("x"); } finally { s += "f"; } } catch { s += "c"; } return s;',
      '',
      'fc',
    ],
    ['string s = ""; try { s += "a"; } catch (Exception) { s += "c"; } finally { s += "f"; } return s;', '', 'af'],
    [
      'string log = ""; try { log += "a"; } finally { log += "b"; } try { log += "c"; throw new Exception(); } ' +
        'catch { log += "d"; } finally { log += "e"; } return log;',
      '',
      'abcde',
    ],
    [
      'int n = 0; for (int i = 0; i < 5; i++) { try { if (i % 2 == 0) throw new Exception(); n += 10; } ' +
        'catch { n += 1; } } return n;',
      '',
      23,
    ],
    [
      'string s = ""; for (int i = 0; i < 3; i++) { try { if (i == 1) continue; s += i; } ' +
        'finally { s += "f"; } } return s;',
      '',
      '0ff2f',
    ],
    [
      'string s = ""; for (int i = 0; i < 3; i++) { try { if (i == 1) break; s += i; } ' +
        'finally { s += "f"; } } return s;',
      '',
      '0ff',
    ],
    [
      'try { return Thrower(); } catch (InvalidOperationException e) { return "got " + e.Message; }',
      'string Thrower() { throw new InvalidOperationException("deep"); }',
      'got deep',
    ],
    ['object o = null; try { return o.ToString(); } catch (NullReferenceException) { return "NRE"; }', '', 'NRE'],
  ])('%s [%s] → %s', (body, extra, expected) => {
    expect(run(body, extra)).toEqual(expected);
  });

  it('an uncaught exception is a ScriptError naming the method and line it was thrown at', () => {
    const rt = runtime('int F(int x) {\n  if (x < 0)\n    throw new ArgumentException("negative");\n  return x;\n}');
    expect(rt.guard(() => rt.call('F', [4]))).toBe(4);
    let error: unknown;
    try {
      rt.guard(() => rt.call('F', [-1]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScriptError);
    expect((error as ScriptError).method).toBe('F');
    expect((error as ScriptError).line).toBe(4);
    expect((error as Error).message).toBe('uncaught System.ArgumentException: negative (script method F, line 4)');
  });

  it('an uncaught exception names the innermost method, not its caller', () => {
    expect(() => run('return Thrower();', 'string Thrower() { throw new InvalidOperationException("deep"); }')).toThrow(
      /uncaught System.InvalidOperationException: deep \(script method Thrower, line 2\)/,
    );
  });

  it('an exception thrown in a catch escapes the try', () => {
    expect(() =>
      run('try { throw new Exception("a"); } catch (Exception e) { throw new InvalidOperationException("b"); }'),
    ).toThrow(/uncaught System.InvalidOperationException: b/);
  });

  it('finally runs on the way out of an uncaught exception', () => {
    const rt = runtime('string log = ""; void F() { try { throw new Exception("x"); } finally { log += "f"; } }');
    expect(() => rt.guard(() => rt.call('F', []))).toThrow(/uncaught System.Exception: x/);
    expect(rt.field('log')).toBe('f');
  });

  it('a failed operation left uncaught names the method and line too', () => {
    expect(() => run('int x = 1;\nint y = 0;\nreturn x / y;')).toThrow(/divide by zero.*\(script method M, line 5\)/);
  });
});

describe('type tests, casts and the null operators', () => {
  it.each<[string, unknown]>([
    ['object o = 42; return o is int ? (int)o * 2 : -1;', 84],
    ['object o = "abc"; string s = o as string; return s.Length;', 3],
    ['object o = 42; string s = o as string; return s == null;', true],
    ['object o = new List<string>(); var l = o as List<string>; return l != null;', true],
    ['object o = 3.5; return (double)o + 1;', 4.5],
    ['object o = 5m; return (decimal)o * 2;', '10'],
    ['object o = "5"; return (string)o + 1;', '51'],
    ['object o = "x"; try { int n = (int)o; return n; } catch (InvalidCastException) { return "ICE"; }', 'ICE'],
    ['object o = 3L; return o is long && !(o is int);', true],
    ["object o = 'c'; return o is char && !(o is string);", true],
    ['object o = true; return o is bool;', true],
    ['object o = 2.5; return o is double && !(o is int) && !(o is decimal);', true],
    ['object o = new InvalidOperationException("x"); return o is InvalidOperationException;', true],
    ['object o = new Dictionary<string, int>(); return o is Dictionary<string, int> && !(o is List<int>);', true],
    ['object o = new int[] { 1 }; return o is int[];', true],
    ['object o = "s"; return o is object;', true],
    ['object o = null; return o is object;', false],
    ['object o = DateTime.Parse("2024-01-02"); return o is DateTime;', true],
    ['object o = 1; object p = 1; return o.Equals(p);', true],
    ['object[] arr = { 1, "a", 2.5 }; int n = 0; foreach (object x in arr) if (x is int) n++; return n;', 1],
    ['int x = 5; return x > 3 ? x < 10 ? "mid" : "big" : "small";', 'mid'],
    ['int x = 5; string r = x % 2 == 0 ? "even" : "odd"; return r;', 'odd'],
    ['int a = 3; return a > 2 ? a * 2 : a + 1;', 6],
    ['bool b = false; return b ? 1 : 2.5;', 2.5],
    ['int x = 0; return x != 0 && 10 / x > 1;', false],
    ['int x = 0; return x == 0 || 10 / x > 1;', true],
    ['string s = null; return s ?? "d";', 'd'],
    ['string s = "v"; return s ?? "d";', 'v'],
    ['string a = null, b = null; return a ?? b ?? "c";', 'c'],
    ['string s = "x"; s ??= "y"; return s;', 'x'],
    ['string s = null; return (s ?? "").Length;', 0],
    ['object o = null; return o ?? "fallback";', 'fallback'],
    ['object o = null; return (o as string) ?? "none";', 'none'],
    ['string s = null; return s?.Length;', null],
    ['string s = "ab"; return s?.Length;', 2],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('DateTime', () => {
  it.each<[string, unknown]>([
    ['return DateTime.Parse("2024-02-29").AddYears(1).ToString("yyyy-MM-dd");', '2025-02-28'],
    ['return DateTime.Parse("2024-02-29").AddYears(4).Day;', 29],
    ['var d = DateTime.Parse("2024-02-29"); return d.Year * 10000 + d.Month * 100 + d.Day;', 20240229],
    ['var d = DateTime.Parse("2024-02-29"); d.AddDays(1); return d.Day;', 29],
    ['return DateTime.Parse("2024-02-29").DayOfWeek.ToString();', 'Thursday'],
    ['return (int)DateTime.Parse("2024-02-29").DayOfWeek;', 4],
    ['return DateTime.Parse("2024-02-29").DayOfWeek == DayOfWeek.Thursday;', true],
    ['return DateTime.Parse("2024-01-31").AddMonths(1).Day;', 29],
    ['return DateTime.Parse("2023-03-31").AddMonths(-1).ToString("yyyy-MM-dd");', '2023-02-28'],
    ['return DateTime.Parse("2024-12-31").AddDays(1).ToString("yyyy-MM-dd");', '2025-01-01'],
    ['return DateTime.Parse("2024-03-01").AddDays(-1).Day;', 29],
    ['return DateTime.Parse("2024-05-06").AddDays(1.5).ToString("yyyy-MM-dd HH:mm");', '2024-05-07 12:00'],
    ['return DateTime.Parse("2024-05-06").AddHours(25).Day;', 7],
    ['return DateTime.Parse("2024-05-06").AddMinutes(90).ToString("HH:mm");', '01:30'],
    ['return DateTime.Parse("2024-05-06 14:30:00").ToString("HH:mm");', '14:30'],
    ['return DateTime.Parse("2024-05-06 14:30:00").ToString("hh:mm tt");', '02:30 PM'],
    ['return DateTime.Parse("2024-05-06 14:30:00").Hour;', 14],
    ['return DateTime.Parse("2024-05-06 14:30:00").Date.ToString("yyyy-MM-dd HH:mm");', '2024-05-06 00:00'],
    ['return DateTime.Parse("2024-05-06").ToString("dd/MM/yyyy");', '06/05/2024'],
    ['return DateTime.Parse("2024-05-06").ToString("MMM d, yyyy");', 'May 6, 2024'],
    ['return DateTime.Parse("2024-05-06").ToString("d MMMM yyyy");', '6 May 2024'],
    ['return DateTime.Parse("2024-05-06").ToString("ddd, MMM dd");', 'Mon, May 06'],
    ['return DateTime.Parse("2024-05-06").ToString("dddd");', 'Monday'],
    ['return String.Format("{0:yyyy/MM/dd}", DateTime.Parse("2024-05-06"));', '2024/05/06'],
    ['return DateTime.Parse("2024-05-06").DayOfYear;', 127],
    ['return (DateTime.Parse("2024-03-01") - DateTime.Parse("2024-02-01")).Days;', 29],
    ['return (DateTime.Parse("2024-03-01") - DateTime.Parse("2024-02-01")).TotalHours;', 696],
    ['return DateTime.Parse("2024-03-01") > DateTime.Parse("2024-02-01");', true],
    ['return DateTime.Parse("2024-05-06") == DateTime.Parse("2024-05-06 00:00:00");', true],
    ['return DateTime.IsLeapYear(2100) || !DateTime.IsLeapYear(2000);', false],
    ['return DateTime.DaysInMonth(2023, 2) * 100 + DateTime.DaysInMonth(2024, 2);', 2829],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('declared types convert values (returns, conditionals, elements)', () => {
  it.each<[string, string, unknown]>([
    ['return One() / 2;', 'double One() { return 1; }', 0.5],
    ['return One() / 4;', 'double One() => 1;', 0.25],
    ['return Half() / 4;', 'decimal Half() { return 1; }', '0.25'],
    ['return Fact(20);', 'long Fact(int n) { return n <= 1 ? 1 : n * Fact(n - 1); }', 2432902008176640000n],
    ['return Big() + 1;', 'long Big() { return int.MaxValue; }', 2147483648n],
    ['bool b = true; return (b ? 1 : 2.5) / 2;', '', 0.5],
    ['bool b = false; return (b ? 2.5 : 1) / 2;', '', 0.5],
    ['bool b = true; double d = 3; return (b ? 1 : d) / 2;', '', 0.5],
    ['bool b = true; return (b ? 1 : 2.5m) / 8;', '', '0.125'],
    ['bool b = true; return (b ? 1 : One()) / 2;', 'double One() { return 1; }', 0.5],
    ['var l = new List<double> { 1 }; return l[0] / 2;', '', 0.5],
    ['var l = new List<double>(); l.Add(3); l.Insert(0, 1); l[1] = 5; return l[0] / 2 + l[1] / 2;', '', 3],
    ['var l = new List<long> { int.MaxValue }; return l[0] + 1;', '', 2147483648n],
    ['var l = new List<long>(); l.AddRange(new int[] { int.MaxValue }); return l[0] + 1;', '', 2147483648n],
    ['double[] a = { 1, 2 }; return a[0] / 2;', '', 0.5],
    ['var a = new double[] { 1, 2 }; a[1] = 3; return a[1] / 2;', '', 1.5],
    ['var a = new double[2]; a[0] = 1; return a[0] / 2;', '', 0.5],
    ['return f[0] / 2;', 'double[] f = { 1, 2 };', 0.5],
    ['var d = new Dictionary<string, double>(); d["x"] = 1; d.Add("y", 3); return d["x"] / 2 + d["y"] / 2;', '', 2],
    ['var d = new Dictionary<long, string>(); d[1] = "one"; return d[1L];', '', 'one'],
    ['var n = 5; n += 2.5; return n;', '', 7],
  ])('%s [%s] → %s', (body, extra, expected) => {
    expect(run(body, extra)).toEqual(expected);
  });

  it.each<[string, string, string]>([
    ['return One();', 'double One() { return 1; }', 'System.Double'],
    ['return N();', 'long N() { return 1; }', 'System.Int64'],
    ['bool b = true; long l = 5; return b ? 1 : l;', '', 'System.Int64'],
    ["bool b = true; return b ? 'a' : 'b';", '', 'System.Char'],
    ['var l = new List<float> { 1 }; return l[0];', '', 'System.Single'],
  ])('%s [%s] is a %s', (body, extra, type) => {
    expect(typeNameOf(value(body, extra))).toBe(type);
  });
});

describe('List.Sort, String.Join and foreach over collections', () => {
  it.each<[string, unknown]>([
    ['var l = new List<double> { 2.5, 1, 10, -3 }; l.Sort(); return String.Join(",", l);', '-3,1,2.5,10'],
    ['var l = new List<string> { "b", "A", "c", "B" }; l.Sort(); return String.Join("", l);', 'AbBc'],
    ['var l = new List<string> { "b", null, "a" }; l.Sort(); return l[0] == null;', true],
    ['var l = new List<decimal> { 10m, 2.5m, 1m }; l.Sort(); return l[0] + "|" + l[2];', '1|10'],
    ['var l = new List<long> { 10, -2, 3 }; l.Sort(); return String.Join(",", l);', '-2,3,10'],
    ['int[] a = { 1, 2, 3 }; return string.Join("-", a);', '1-2-3'],
    ['var l = new List<string> { "a", "b" }; return String.Join(", ", l);', 'a, b'],
    ['return String.Join(",", new List<int>());', ''],
    [
      'var l = new List<int> { 1, 2 }; try { foreach (int x in l) l.Add(x); return "no"; } ' +
        'catch (InvalidOperationException e) { return e.Message; }',
      'Collection was modified; enumeration operation may not execute.',
    ],
    ['var a = new int[] { 1, 2, 3 }; int s = 0; foreach (int x in a) { s += x; a[2] = 10; } return s;', 13],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('exceptions: hierarchy, rethrow, messages', () => {
  it.each<[string, unknown]>([
    [
      'int[] a = new int[2]; try { return a[2]; } catch (IndexOutOfRangeException e) { return e.Message; }',
      'Index was outside the bounds of the array.',
    ],
    [
      'int[] a = new int[2]; try { a[-1] = 1; return "no"; } catch (IndexOutOfRangeException) { return "IOORE"; }',
      'IOORE',
    ],
    ['var l = new List<int>(); try { return l[0]; } catch (ArgumentOutOfRangeException) { return "AOORE"; }', 'AOORE'],
    ['var l = new List<int>(); try { return l[1]; } catch (ArgumentException) { return "AE"; }', 'AE'],
    ['try { throw new ArgumentNullException("p"); } catch (ArgumentException) { return "AE"; }', 'AE'],
    ['try { int z = 0; return 1 / z; } catch (ArithmeticException) { return "arith"; }', 'arith'],
    [
      'try { throw new OverflowException(); } catch (ArithmeticException e) { return e.Message; }',
      'Arithmetic operation resulted in an overflow.',
    ],
    [
      'try { throw new DivideByZeroException(); } catch (SystemException e) { return e.Message; }',
      'Attempted to divide by zero.',
    ],
    ['try { throw new FormatException("f"); } catch (SystemException e) { return e.Message; }', 'f'],
    [
      'try { throw new ApplicationException("a"); } catch (SystemException) { return "sys"; } ' +
        'catch (Exception) { return "exc"; }',
      'exc',
    ],
    [
      'var e = new InvalidCastException("c"); ' +
        'return e is Exception && e is SystemException && !(e is ArgumentException);',
      true,
    ],
    ['try { int z = 0; return 1 / z; } catch (Exception e) { return e is ArithmeticException; }', true],
    ['return new KeyNotFoundException("k").ToString();', 'System.Collections.Generic.KeyNotFoundException: k'],
    [
      'try { try { throw new ArgumentException("x"); } catch (Exception) { throw; } } ' +
        'catch (ArgumentException e) { return e.Message; }',
      'x',
    ],
    [
      'string s = ""; try { try { int z = 0; s += 1 / z; } catch (DivideByZeroException) { s += "c"; throw; } } ' +
        'catch (DivideByZeroException e) { s += e.Message; } return s;',
      'cAttempted to divide by zero.',
    ],
    [
      'try { try { throw new Exception("a"); } catch (Exception) { try { throw new Exception("b"); } ' +
        'catch (Exception) { } throw; } } catch (Exception e) { return e.Message; }',
      'a',
    ],
    ['return new Exception().Message;', "Exception of type 'System.Exception' was thrown."],
    ['return new Exception(null).Message;', "Exception of type 'System.Exception' was thrown."],
    [
      'return new InvalidOperationException().Message;',
      'Operation is not valid due to the current state of the object.',
    ],
    ['return new ArgumentException().Message;', 'Value does not fall within the expected range.'],
    [
      'try { int z = 0; return 1 / z; } catch (DivideByZeroException e) { return e.Message; }',
      'Attempted to divide by zero.',
    ],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('throw; outside a catch', () => {
  it('is refused as C# refuses it, and no catch takes it', () => {
    expect(() => run('throw;')).toThrow(/'throw;' is only allowed in a catch \(script method M, line 3\)/);
    expect(() => run('try { throw; } catch { } return 1;')).toThrow(ScriptError);
  });
});

describe('names: shadowing and this.', () => {
  it.each<[string, string]>([
    ['int x = 1; { int x = 2; } return x;', ''],
    ['{ int y = 1; } int y = 2; return y;', ''],
    ['int i = 0; for (int i = 0; i < 2; i++) { } return i;', ''],
    ['int v = 0; foreach (int v in new int[] { 1 }) { } return v;', ''],
    ['Exception e = null; try { throw new Exception(); } catch (Exception e) { } return 0;', ''],
    ['return F(1);', 'int F(int a) { int a = 2; return a; }'],
    ['return F(1);', 'int F(int a) { { int a = 2; } return a; }'],
    ['return F(1);', 'int F(int a) { for (int a = 0; a < 1; a++) { } return 0; }'],
  ])('C# refuses a local hiding an enclosing one: %s [%s]', (body, extra) => {
    expect(() => run(body, extra)).toThrow(ScriptError);
    expect(() => run(body, extra)).toThrow(/named '\w' cannot be declared in this scope/);
  });

  it.each<[string, string, unknown]>([
    ['{ int x = 1; } { int x = 2; } for (int i = 0; i < 1; i++) { } for (int i = 0; i < 1; i++) { } return 0;', '', 0],
    ['int x = 5; return this.x + x;', 'int x = 10;', 15],
    ['int x = 5; this.x = 7; return this.x * 100 + x;', 'int x = 10;', 705],
    ['return Set(3);', 'int x = 1; int Set(int x) { this.x = x * 2; return this.x; }', 6],
    ['return Add();', 'string s = "a"; string Add() { string s = "z"; this.s += "b"; return this.s + s; }', 'abz'],
    ['return Inc(10);', 'int x = 1; int Inc(int x) { this.x++; return this.x + x; }', 12],
    ['return Len("abc");', 'string s = "hello"; int Len(string s) { return this.s.Length * 10 + s.Length; }', 53],
    ['return Half(1);', 'double d = 0; double Half(int d) { this.d = d; return this.d / 2; }', 0.5],
  ])('%s [%s] → %s', (body, extra, expected) => {
    expect(run(body, extra)).toEqual(expected);
  });
});

describe('defaults, null strings, nullable locals', () => {
  it.each<[string, string, unknown]>([
    ['return (int)c;', 'char c;', 0],
    ['var a = new char[2]; return (int)a[0];', '', 0],
    ["char[] a = new char[1]; return a[0] == '\\0';", '', true],
    ['string s = null; string t = null; return s + t;', '', ''],
    ['string s = null; return s + 1;', '', '1'],
    ['string s = null; string t = null; s += t; return s;', '', ''],
    ['string s = null; return (s + s).Length;', '', 0],
    ['return f + g;', 'string f; string g;', ''],
    ['int? n = null; return n ?? 5;', '', 5],
    ['int? n = 3; return n ?? 5;', '', 3],
    ['int? n = null; return n == null;', '', true],
    ['int? n = null; n = 4; return n + 1;', '', 5],
    ['double? d = 1; return d / 2;', '', 0.5],
    ['int? a = null, b = 2; return (a ?? 0) + b;', '', 2],
    ['return f == null;', 'int? f;', true],
    ['return F(null) * 10 + F(3);', 'int F(int? x) { return x ?? -1; }', -7],
    ['int s = 0; foreach (int? x in new int[] { 1, 2 }) s += x ?? 0; return s;', '', 3],
  ])('%s [%s] → %s', (body, extra, expected) => {
    expect(run(body, extra)).toEqual(expected);
  });
});

describe('new DateTime, new TimeSpan', () => {
  it.each<[string, unknown]>([
    ['return new DateTime(2024, 2, 29).ToString("yyyy-MM-dd");', '2024-02-29'],
    ['return new DateTime(2024, 2, 29, 13, 5, 9).ToString("yyyy-MM-dd HH:mm:ss");', '2024-02-29 13:05:09'],
    ['return new System.DateTime(2024, 1, 31).AddMonths(1).Day;', 29],
    ['DateTime d = new DateTime(2024, 5, 6); return d.DayOfWeek.ToString();', 'Monday'],
    ['try { return new DateTime(2023, 2, 29); } catch (ArgumentOutOfRangeException) { return "AOORE"; }', 'AOORE'],
    ['try { return new DateTime(2024, 13, 1); } catch (ArgumentOutOfRangeException) { return "AOORE"; }', 'AOORE'],
    [
      'try { return new DateTime(2024, 1, 1, 24, 0, 0); } catch (ArgumentOutOfRangeException) { return "AOORE"; }',
      'AOORE',
    ],
    ['return new TimeSpan(1, 2, 3).TotalSeconds;', 3723],
    ['var t = new TimeSpan(1, 2, 3, 4); return t.Days * 100 + t.Hours;', 102],
    ['return (new DateTime(2024, 3, 1) - new DateTime(2024, 2, 1)).Days;', 29],
  ])('%s → %s', (body, expected) => {
    expect(run(body)).toEqual(expected);
  });
});

describe('string interpolation', () => {
  it.each<[string, string, unknown]>([
    ['int x = 5; return $"x={x}";', '', 'x=5'],
    ['double d = 1234.5; return $"{d:N2}";', '', '1,234.50'],
    ['int x = 5; return $"[{x,4}][{x,-4}]";', '', '[   5][5   ]'],
    ['int x = 5; return $"[{x,6:F1}]";', '', '[   5.0]'],
    ['return $"{{literal}}";', '', '{literal}'],
    ['return $"plain";', '', 'plain'],
    ['string name = "A"; return $@"C:\\{name}\\x";', '', 'C:\\A\\x'],
    ['string name = "A"; return @$"{name}""q""";', '', 'A"q"'],
    ['return $"a\\tb";', '', 'a\tb'],
    ['int x = 5; return $"{(x > 3 ? "big" : "small")}!";', '', 'big!'],
    ['return $"{Twice(2)} and {Twice(3) + 1}";', 'int Twice(int n) { return n * 2; }', '4 and 7'],
    ['var d = new DateTime(2024, 5, 6); return $"{d:yyyy-MM-dd}";', '', '2024-05-06'],
    ['string s = null; return $"[{s}]";', '', '[]'],
    ['var l = new List<int> { 1, 2 }; return $"{l.Count}: {l[0]}";', '', '2: 1'],
    ['return $"{f}";', 'decimal f = 12.50m;', '12.50'],
    ['var t = new TimeSpan(1, 2, 3); return $"{t:hh\\\\:mm}";', '', '01:02'],
    ['var t = new TimeSpan(1, 2, 3); return $@"{t:hh\\:mm}";', '', '01:02'],
  ])('%s [%s] → %s', (body, extra, expected) => {
    expect(run(body, extra)).toEqual(expected);
  });

  it('leaves a method out with a warning naming its line when a hole does not parse', () => {
    const program = parseScript(
      'public class ReportScript {\nint Ok() { return 1; }\nstring Bad() {\nreturn $"{1 +}";\n}\n}',
    );
    expect(program.methods.find((m) => m.name === 'Ok')?.refused).toBeNull();
    expect(program.methods.find((m) => m.name === 'Bad')?.refused).toMatch(/line 4/);
    expect(program.warnings).toEqual([expect.stringMatching(/^Script line 3: method Bad is left out/)]);
  });
});
