// The report script parser: C#'s class ReportScript → fields, methods and statements;
// what a report script may not use is refused with a warning naming its line.
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../src/report/expr/ast.js';
import type { MethodDecl, Stmt } from '../../../src/report/script/ast.js';
import { parseScript } from '../../../src/report/script/parser.js';

const script = (members: string): string => `using System;
using System.Collections.Generic;
namespace FastReport
{
  public class ReportScript
  {
${members}
  }
}
`;

function method(members: string, name: string): MethodDecl {
  const m = parseScript(script(members)).methods.find((x) => x.name === name);
  if (!m) throw new Error(`no method ${name}`);
  return m;
}

/** The statements of a method body `void M() { … }`. */
function body(statements: string): readonly Stmt[] {
  const m = method(`private void M() { ${statements} }`, 'M');
  if (m.refused) throw new Error(m.refused);
  if (m.body?.k !== 'block') throw new Error('no block');
  return m.body.body;
}

const first = (statements: string): Stmt => body(statements)[0]!;
const exprOf = (statements: string): Node => {
  const s = first(statements);
  if (s.k !== 'expr') throw new Error(`not an expression statement: ${s.k}`);
  return s.x;
};

describe('class members', () => {
  const p = parseScript(
    script(`
    private int total = 0;
    private string a = "x", b;
    public static List<int> values = new List<int>();
    private Dictionary<string, decimal> map = new Dictionary<string, decimal>();
    private int[] days = { 1, 2, 3 };
    public decimal Rate { get; set; } = 1.5m;
    #region helpers
    private int GroupRank() { return 1; }
    #endregion
    public string Name(int i, string sep = ",") => sep + i;
    private void Data1_BeforePrint(object sender, EventArgs e) { total += 1; }
    public ReportScript() { total = 5; }`),
  );

  it('reads the fields with their types and initialisers, several in one declaration', () => {
    expect(p.fields.map((f) => [f.name, f.type, f.init?.k ?? null, f.isStatic])).toEqual([
      ['total', 'int', 'lit', false],
      ['a', 'string', 'lit', false],
      ['b', 'string', null, false],
      ['values', 'List<int>', 'snew', true],
      ['map', 'Dictionary<string, decimal>', 'snew', false],
      ['days', 'int[]', 'snew', false],
      ['Rate', 'decimal', 'lit', false],
    ]);
  });

  it('reads the methods with their parameters, return types and lines; the constructor as .ctor', () => {
    expect(p.methods.map((m) => [m.name, m.returnType, m.params.map((x) => `${x.type} ${x.name}`), m.line])).toEqual([
      ['GroupRank', 'int', [], 15],
      ['Name', 'string', ['int i', 'string sep'], 17],
      ['Data1_BeforePrint', 'void', ['object sender', 'EventArgs e'], 18],
      ['.ctor', 'ReportScript', [], 19],
    ]);
    expect(p.methods.every((m) => m.refused === null)).toBe(true);
    expect(p.warnings).toEqual([]);
  });

  it('makes an expression-bodied method a return', () => {
    const m = p.methods.find((x) => x.name === 'Name')!;
    expect(m.body?.k).toBe('return');
  });

  it('gives lines counted from the top of the script', () => {
    expect(p.lineOf(0)).toBe(1);
    expect(p.lineOf(script('').indexOf('public class'))).toBe(5);
  });
});

describe('statements', () => {
  it.each([
    ['int x = 1;', 'local'],
    ['var x = new List<string>();', 'local'],
    ['List<Dictionary<string, int>> x = null;', 'local'],
    ['string[] parts = { "a", "b" };', 'local'],
    ['int a = 1, b = 2, c;', 'local'],
    ['x = 1;', 'expr'],
    ['x += 1;', 'expr'],
    ['x++;', 'expr'],
    ['--x;', 'expr'],
    ['Text1.Text = "a";', 'expr'],
    ['list.Add(1);', 'expr'],
    ['map["a"] = 2;', 'expr'],
    ['Foo(1, 2);', 'expr'],
    ['if (a) x = 1;', 'if'],
    ['if (a) { x = 1; } else if (b) { x = 2; } else x = 3;', 'if'],
    ['while (i < 10) i++;', 'while'],
    ['do { i++; } while (i < 10);', 'do'],
    ['for (int i = 0; i < 10; i++) total += i;', 'for'],
    ['for (i = 0, j = 1; ; i++, j--) break;', 'for'],
    ['for (;;) { break; }', 'for'],
    ['foreach (var v in values) total += v;', 'foreach'],
    ['foreach (KeyValuePair<string, int> kv in map) { }', 'foreach'],
    ['switch (x) { case 1: case 2: y = 1; break; case "a": break; default: y = 0; break; }', 'switch'],
    ['return;', 'return'],
    ['return x + 1;', 'return'],
    ['throw new Exception("no");', 'throw'],
    ['try { x = 1; } catch (Exception e) { x = 2; } finally { x = 3; }', 'try'],
    ['try { x = 1; } catch { }', 'try'],
    [';', 'empty'],
    ['{ int y = 0; }', 'block'],
    ['break;', 'break'],
    ['continue;', 'continue'],
  ])('%s is a %s statement', (source, kind) => {
    expect(first(source).k).toBe(kind);
  });

  it('keeps else with the nearest if', () => {
    const s = first('if (a) if (b) x = 1; else x = 2;');
    expect(s.k === 'if' && s.else).toBeNull();
    expect(s.k === 'if' && s.then.k === 'if' && s.then.else?.k).toBe('expr');
  });

  it('reads a switch into sections with their labels', () => {
    const s = first('switch (x) { case 1: case 2: y = 1; break; default: y = 0; break; }');
    if (s.k !== 'switch') throw new Error('no switch');
    expect(s.sections.map((x) => [x.labels.length, x.labels.includes(null), x.body.length])).toEqual([
      [2, false, 2],
      [1, true, 2],
    ]);
  });

  it('reads a for loop into its parts', () => {
    const s = first('for (int i = 0, j = 0; i < 10; i++, j += 2) total += i;');
    if (s.k !== 'for') throw new Error('no for');
    expect([s.init.length, s.init[0]?.k, s.cond?.k, s.step.length, s.body.k]).toEqual([1, 'local', 'bin', 2, 'expr']);
  });
});

describe('script expressions', () => {
  it.each([
    ['x = 1;', 'assign', '='],
    ['x += 1;', 'assign', '+='],
    ['x -= 1;', 'assign', '-='],
    ['x *= 2;', 'assign', '*='],
    ['x /= 2;', 'assign', '/='],
    ['x %= 2;', 'assign', '%='],
    ['x &= y;', 'assign', '&='],
    ['x |= y;', 'assign', '|='],
    ['x ^= y;', 'assign', '^='],
    ['x <<= 1;', 'assign', '<<='],
    ['x >>= 1;', 'assign', '>>='],
    ['x ??= "a";', 'assign', '??='],
  ])('%s assigns with %s', (source, kind, op) => {
    const x = exprOf(source);
    expect(x.k).toBe(kind);
    expect(x.k === 'assign' && x.op).toBe(op);
  });

  it('assigns right to left', () => {
    const x = exprOf('a = b = 3;');
    expect(x.k === 'assign' && x.value.k).toBe('assign');
  });

  it('assigns to members and indexers', () => {
    const member = exprOf('Text1.Fill.Color = Color.Red;');
    expect(member.k === 'assign' && member.target.k).toBe('chain');
    const index = exprOf('values[i + 1] = 2;');
    expect(index.k === 'assign' && index.target.k).toBe('index');
  });

  it('refuses to assign to what is not a variable', () => {
    expect(method('void M() { 1 = 2; }', 'M').refused).toMatch(/only a variable, a property or an indexer/);
    expect(method('void M() { Foo() = 2; }', 'M').refused).toMatch(/only a variable/);
  });

  it('reads ++ and -- before and after', () => {
    const pre = exprOf('++x;');
    const post = exprOf('x--;');
    expect(pre.k === 'incdec' && [pre.op, pre.prefix]).toEqual(['++', true]);
    expect(post.k === 'incdec' && [post.op, post.prefix]).toEqual(['--', false]);
    const inside = exprOf('y = a[i++] + --b;');
    expect(inside.k).toBe('assign');
  });

  it('calls the script’s own methods (and this.)', () => {
    const call = exprOf('GroupRank(1, "a");');
    expect(call.k === 'ucall' && [call.name, call.args.length]).toEqual(['GroupRank', 2]);
    const self = exprOf('this.total = 1;');
    // `this.total` names the field, even where a local total hides it.
    expect(self.k === 'assign' && self.target.k === 'chain' && self.target.segs).toEqual(['this', 'total']);
    // Standard functions stay standard functions.
    expect(exprOf('x = Round(1.5);').k === 'assign').toBe(true);
  });

  it('creates objects, generic collections and arrays', () => {
    const list = exprOf('x = new List<int> { 1, 2, 3 };');
    if (list.k !== 'assign' || list.value.k !== 'snew') throw new Error('no new');
    expect([list.value.type, list.value.typeArgs, list.value.init?.length]).toEqual(['List', ['int'], 3]);
    const dict = exprOf('x = new Dictionary<string, List<int>>();');
    if (dict.k !== 'assign' || dict.value.k !== 'snew') throw new Error('no new');
    expect(dict.value.typeArgs).toEqual(['string', 'List<int>']);
    const pairs = exprOf('x = new Dictionary<string, int> { { "a", 1 }, { "b", 2 } };');
    expect(pairs.k === 'assign' && pairs.value.k === 'snew' && pairs.value.init?.length).toBe(2);
    const arr = exprOf('x = new int[10];');
    expect(arr.k === 'assign' && arr.value.k === 'snew' && [arr.value.array, arr.value.length?.k]).toEqual([
      true,
      'lit',
    ]);
    const implicit = exprOf('x = new[] { "a", "b" };');
    expect(implicit.k === 'assign' && implicit.value.k === 'snew' && implicit.value.type).toBe('');
    const fill = exprOf('Text1.Fill = new SolidFill(Color.Red);');
    expect(fill.k === 'assign' && fill.value.k === 'snew' && fill.value.type).toBe('SolidFill');
    const qualified = exprOf('x = new System.Drawing.Font("Arial", 10, FontStyle.Bold);');
    expect(qualified.k === 'assign' && qualified.value.k === 'snew' && qualified.value.args.length).toBe(3);
  });

  it('reads is and as with type names', () => {
    const is = exprOf('b = sender is TextObject && x > 1;');
    expect(is.k === 'assign' && is.value.k === 'bin' && is.value.a.k).toBe('typetest');
    const as = exprOf('t = sender as TextObject;');
    expect(as.k === 'assign' && as.value.k === 'typetest' && [as.value.op, as.value.type]).toEqual([
      'as',
      'TextObject',
    ]);
    const cond = exprOf('x = y is int ? 1 : 2;');
    expect(cond.k === 'assign' && cond.value.k).toBe('cond');
  });

  it('keeps casts, data references and the rest of the expression language', () => {
    const x = exprOf('total += (decimal)Report.GetColumnValue("Orders.Freight") * [Orders.Qty];');
    expect(x.k).toBe('assign');
  });
});

describe('what a report script may not do', () => {
  it.each([
    ['System.IO.File.ReadAllText("/etc/passwd");', /System.IO/],
    ['File.Delete("x");', /'File' reaches outside the report/],
    ['Process.Start("sh");', /'Process' reaches outside/],
    ['var t = typeof(string).Assembly;', /'typeof' \(reflection\)/],
    ['var t = x.GetType();', /'GetType' \(reflection\)/],
    ['Environment.Exit(1);', /'Environment'/],
    ['new System.Threading.Thread(null);', /System.Threading/],
    ['System.Reflection.Assembly.Load("x");', /System.Reflection/],
    ['lock (x) { }', /'lock' \(threads\)/],
    ['goto end;', /'goto' is not supported/],
    ['unsafe { }', /'unsafe' code/],
    ['fixed (int* p = a) { }', /'fixed'/],
    ['int* p = stackalloc int[10];', /'stackalloc'/],
    ['using (var s = new X()) { }', /'using' statements/],
    ['yield return 1;', /'yield'/],
  ])('%s is refused', (source, why) => {
    const m = method(`void M() { ${source} }`, 'M');
    expect(m.refused).toMatch(why);
    expect(m.body).toBeNull();
  });

  it('takes names such as constructor or toString for what they are in C#: plain names', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(method(`void M() { ${name} = 1; ${name}++; }`, 'M').refused).toBeNull();
  });

  it('refuses native code declared by attribute, and warns with the line', () => {
    const p = parseScript(
      script('    [DllImport("libc")]\n    static extern int system(string c);\n    void Ok() { }'),
    );
    expect(p.methods.find((m) => m.name === 'system')?.refused).toMatch(/DllImport/);
    expect(p.methods.find((m) => m.name === 'Ok')?.refused).toBeNull();
    expect(p.warnings[0]).toMatch(/^Script line 8: method system is left out/);
  });

  it('keeps the other methods when one does not parse', () => {
    const p = parseScript(script('    void Bad() { x = ; }\n    void Good() { x = 1; }'));
    expect(p.methods.find((m) => m.name === 'Bad')?.refused).toMatch(/line 7/);
    expect(p.methods.find((m) => m.name === 'Good')?.body?.k).toBe('block');
    expect(p.warnings).toHaveLength(1);
  });

  it('starts a field whose initialiser reaches outside empty', () => {
    const p = parseScript(script('    string secret = System.IO.File.ReadAllText("/etc/passwd");'));
    expect(p.fields[0]?.init).toBeNull();
    expect(p.warnings[0]).toMatch(/field secret starts empty/);
  });

  it('leaves out other classes, nested types and properties with code', () => {
    const p = parseScript(`public class Helper { void X() { } }
public class ReportScript {
  enum Kind { A, B }
  int P { get { return 1; } }
  int q;
}`);
    expect(p.fields.map((f) => f.name)).toEqual(['q']);
    expect(p.warnings).toEqual([
      'Script line 1: class Helper is ignored (only class ReportScript is read)',
      'Script line 3: a nested enum is not supported; it is ignored',
      'Script line 4: property P has code, which is not supported; it is ignored',
    ]);
  });
});
