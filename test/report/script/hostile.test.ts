// Hostile report scripts: every attempt to reach outside the report — files, processes,
// reflection, threads, native code, the network, the JavaScript underneath — is refused when the
// script is loaded (the method is left out with a warning naming its line) or stopped when it runs
// with a ScriptError naming the method and line; every attempt to exhaust the machine (loops,
// recursion, allocation) ends with a ScriptError whose `limit` is set, quickly. A secret file and a
// file a script tries to create check that nothing got through.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { SyntaxErr } from '../../../src/report/expr/lexer.js';
import { toPublic } from '../../../src/report/expr/values.js';
import type { ScriptProgram } from '../../../src/report/script/ast.js';
import {
  ScriptError,
  type ScriptHost,
  type ScriptLimits,
  ScriptRuntime,
} from '../../../src/report/script/interpreter.js';
import { parseScript } from '../../../src/report/script/parser.js';
import { runTemplate, textsOf } from '../engine/helpers.js';

// ---------------------------------------------------------------------------------------------
// The bait: a secret a script must never read, and a file it must never create.

const DIR = mkdtempSync(join(tmpdir(), 'hostile-script-'));
const SECRET = `secret-marker-${process.pid}-${Date.now().toString(36)}`;
const SECRET_PATH = join(DIR, 'secret.txt');
const PWNED_PATH = join(DIR, 'pwned');
writeFileSync(SECRET_PATH, SECRET);
/** C# string literals of the paths. */
const SECRET_LIT = JSON.stringify(SECRET_PATH);
const PWNED_LIT = JSON.stringify(PWNED_PATH);
const DIR_LIT = JSON.stringify(DIR);

/** Everything any attempt produced (values, warnings, error messages), checked for the secret. */
const transcript: string[] = [];

afterAll(() => {
  rmSync(DIR, { recursive: true, force: true });
});

const LIMITS: ScriptLimits = { maxSteps: 100_000, maxItems: 10_000, maxDepth: 50 };
/** Wall time a stopped script may take (the limits above end any of them in well under a second). */
const QUICK_MS = 5_000;

const host: ScriptHost = {
  convertNulls: true,
  resolve: (name) => (name === 'Rate' ? { value: 2 } : undefined),
  assign: () => false,
};

interface Outcome {
  program: ScriptProgram;
  /** What the method returned (public value), when it returned. */
  value?: unknown;
  /** What init or the call threw. */
  error?: unknown;
  ms: number;
}

function record(o: { warnings?: readonly string[]; value?: unknown; error?: unknown }): void {
  transcript.push(...(o.warnings ?? []));
  if ('value' in o) transcript.push(String(o.value));
  if (o.error instanceof Error) transcript.push(o.error.message, String(o.error.stack));
  else if (o.error !== undefined) transcript.push(String(o.error));
}

/** Loads `members` as the body of class ReportScript (they start on script line 2), runs the
 *  initialisers and calls `method`. */
function attempt(members: string, method = 'M'): Outcome {
  return attemptText(`public class ReportScript {\n${members}\n}`, method);
}

/** Loads a whole script, runs the initialisers and calls `method`. */
function attemptText(text: string, method = 'M'): Outcome {
  const program = parseScript(text);
  const rt = new ScriptRuntime(program, host, LIMITS);
  const started = Date.now();
  const o: Outcome = { program, ms: 0 };
  try {
    rt.guard(() => rt.init());
    o.value = toPublic(rt.guard(() => rt.call(method, [])));
  } catch (e) {
    o.error = e;
  }
  o.ms = Date.now() - started;
  record({ warnings: program.warnings, ...o });
  expect(String(o.value)).not.toContain(SECRET);
  return o;
}

/** A method M whose body is `code`, on script line 3. */
const method = (code: string): string => `object M() {\n${code}\n}`;

function scriptError(o: Outcome): ScriptError {
  expect(o.error).toBeInstanceOf(ScriptError);
  return o.error as ScriptError;
}

/** M was refused when loaded: left out with a warning naming `line`, and calling it runs nothing. */
function expectRefused(o: Outcome, why: RegExp, line: number): void {
  const m = o.program.methods.find((x) => x.name === 'M');
  expect(m?.body).toBeNull();
  expect(m?.refused).toMatch(why);
  expect(o.program.warnings).toContain(`Script line ${line}: method M is left out: ${m?.refused}`);
  const e = scriptError(o);
  expect(e.message).toMatch(/the script's method M was left out/);
  expect(e.limit).toBe(false);
  expect(o).not.toHaveProperty('value');
}

/** M loaded but was stopped when it ran, on script line 3, with `why`. */
function expectStopped(o: Outcome, why: RegExp): void {
  expect(o.program.warnings).toEqual([]);
  expect(o.program.methods.find((x) => x.name === 'M')?.refused).toBeNull();
  const e = scriptError(o);
  expect(e.limit).toBe(false);
  expect(e.method).toBe('M');
  expect(e.line).toBe(3);
  expect(e.message).toMatch(why);
  expect(e.message).toMatch(/\(script method M, line 3\)$/);
  expect(o).not.toHaveProperty('value');
}

// ---------------------------------------------------------------------------------------------

describe('refused when the script is loaded (the offending word names the line)', () => {
  it.each([
    ['File.ReadAllText (qualified)', `return System.IO.File.ReadAllText(${SECRET_LIT});`, /'System\.IO'/],
    ['File.WriteAllText (qualified)', `System.IO.File.WriteAllText(${PWNED_LIT}, "x"); return 1;`, /'System\.IO'/],
    ['File.ReadAllText', `return File.ReadAllText(${SECRET_LIT});`, /'File' reaches outside the report/],
    ['File.ReadAllBytes', `return File.ReadAllBytes(${SECRET_LIT}).Length;`, /'File' reaches outside/],
    ['File.Delete', `File.Delete(${SECRET_LIT}); return 1;`, /'File' reaches outside/],
    ['Directory.GetFiles', `return Directory.GetFiles(${DIR_LIT});`, /'Directory' reaches outside/],
    ['Directory (qualified)', `return System.IO.Directory.GetFiles(${DIR_LIT}).Length;`, /'System\.IO'/],
    ['FileStream (qualified)', `var f = new System.IO.FileStream(${SECRET_LIT}, 3); return f;`, /'System\.IO'/],
    ['StreamReader (qualified)', `return new System.IO.StreamReader(${SECRET_LIT}).ReadToEnd();`, /'System\.IO'/],
    ['File with a comment before the dot', `return File /* hi */ .ReadAllText(${SECRET_LIT});`, /'File' reaches/],
    ['verbatim identifier @File', `return @File.ReadAllText(${SECRET_LIT});`, /'File' reaches outside/],
    ['global::System.IO', `return global::System.IO.File.ReadAllText(${SECRET_LIT});`, /'System\.IO'/],
    ['typeof(X).Assembly', 'return typeof(string).Assembly;', /'typeof' \(reflection\)/],
    ['GetType().GetMethod', 'return "x".GetType().GetMethod("Substring");', /'GetType' \(reflection\)/],
    ['this.GetType()', 'return this.GetType();', /'GetType' \(reflection\)/],
    ['Type.GetType', 'return Type.GetType("System.IO.File");', /'GetType' \(reflection\)/],
    ['Activator.CreateInstance', 'return Activator.CreateInstance("mscorlib", "System.IO.File");', /'Activator'/],
    ['System.Reflection.Assembly', 'return System.Reflection.Assembly.Load("mscorlib");', /'System\.Reflection'/],
    ['Assembly.GetExecutingAssembly', 'return Assembly.GetExecutingAssembly();', /'Assembly' reaches outside/],
    ['AppDomain.CurrentDomain', 'return AppDomain.CurrentDomain.GetAssemblies();', /'AppDomain' reaches outside/],
    ['Process.Start', `Process.Start("touch", ${PWNED_LIT}); return 1;`, /'Process' reaches outside/],
    ['System.Diagnostics.Process', `System.Diagnostics.Process.Start("touch", ${PWNED_LIT});`, /'System\.Diagnostics'/],
    ['ProcessStartInfo', 'var p = new System.Diagnostics.ProcessStartInfo("sh"); return p;', /'System\.Diagnostics'/],
    ['new Thread (qualified)', 'var t = new System.Threading.Thread(null); return t;', /'System\.Threading'/],
    ['Thread.Sleep', 'Thread.Sleep(100000); return 1;', /'Thread' reaches outside/],
    ['Task.Run', 'Task.Run(null); return 1;', /'Task' reaches outside/],
    ['ThreadPool', 'ThreadPool.QueueUserWorkItem(null); return 1;', /'ThreadPool' reaches outside/],
    ['Parallel.For', 'return Parallel.For(0, 10, null);', /'Parallel' reaches outside/],
    ['unsafe block', 'unsafe { int x = 1; } return 1;', /'unsafe' code/],
    ['fixed', 'int[] a = new int[1]; fixed (int p = a) { } return 1;', /'fixed' \(pointers\)/],
    ['stackalloc', 'var s = stackalloc int[10]; return 1;', /'stackalloc'/],
    ['Marshal', 'return Marshal.AllocHGlobal(10);', /'Marshal' reaches outside/],
    ['System.Runtime.InteropServices', 'return System.Runtime.InteropServices.Marshal.ReadByte(null);', /Runtime/],
    ['reflection through a dynamic local', 'dynamic d = "x"; return d.GetType();', /'GetType' \(reflection\)/],
    ['Environment.Exit', 'Environment.Exit(1); return 1;', /'Environment' reaches outside/],
    ['Environment.GetEnvironmentVariable', 'return Environment.GetEnvironmentVariable("HOME");', /'Environment'/],
    ['WebClient (qualified)', 'return new System.Net.WebClient().DownloadString("http://x");', /'System\.Net'/],
    ['HttpClient (qualified)', 'return new System.Net.Http.HttpClient();', /'System\.Net'/],
    ['WebRequest', 'return WebRequest.Create("http://example.com");', /'WebRequest' reaches outside/],
    ['Registry', 'return Registry.LocalMachine;', /'Registry' reaches outside/],
  ])('%s', (_label, code, why) => {
    expectRefused(attempt(method(code)), why, 3);
  });

  it('reads dynamic as "any value": members are the value\'s own allow-listed ones, as with var', () => {
    const code = 'dynamic d = "xy"; List<dynamic> l = new List<dynamic>(); l.Add(d); return l[0].Length;';
    expect(attempt(method(code))).toMatchObject({ value: 2 });
    expectStopped(attempt(method('dynamic d = "xy"; return d.Secret;')), /Secret/);
    // A cast to dynamic is not read: the method is left out.
    const cast = attempt(method('object o = "x"; return ((dynamic)o).Length;'));
    expect(cast.program.methods.find((m) => m.name === 'M')?.refused).toMatch(/'\)' expected/);
  });

  it.each([
    ['a pointer declaration', 'int x = 1; int* p = &x; return 1;', /'int' is a type/],
    ['an address-of', 'int x = 0; int y = &x; return y;', /unexpected '&'/],
    ['a JS-style call of a function value', 'return Function("return process")();', /cannot be called/],
    ['a constructor chain call', 'return "x".constructor.constructor("return process")();', /cannot be called/],
    ['`this` alone', 'return this;', /'this' is only allowed before a member/],
    ['lock', 'lock (this) { return 1; }', /'lock' \(threads\)/],
    ['goto', 'goto end; end: return 1;', /'goto'/],
    ['a using statement', 'using (var x = new List<int>()) { } return 1;', /'using' statements/],
    ['sizeof', 'return sizeof(int);', /'sizeof'/],
    ['nameof', 'return nameof(File);', /'nameof'/],
    ['Math.constructor', 'return Math.constructor;', /'Math' has no member 'constructor'/],
    ['String.prototype', 'return String.prototype;', /'String' has no member 'prototype'/],
  ])('%s does not parse as a report script: the method is left out', (_label, code, why) => {
    const o = attempt(method(code));
    // The warning is at the method; the reason names the line of the construct.
    expectRefused(o, why, 2);
    expect(o.program.methods[0]?.refused).toMatch(/\(line 3\)$/);
  });

  it('refuses a P/Invoke declaration, and a method calling it fails without running it', () => {
    const o = attempt(
      '[DllImport("libc")] static extern int system(string cmd);\n' +
        `object M() {\nreturn system("touch " + ${PWNED_LIT});\n}`,
    );
    expect(o.program.warnings).toEqual([
      'Script line 2: method system is left out: [DllImport("libc")] (native code) is not allowed in a report script',
    ]);
    const e = scriptError(o);
    expect(e.message).toMatch(/the script's method system was left out \(\[DllImport\("libc"\)\] \(native code\)/);
    expect(e.message).toMatch(/\(script method M, line 4\)$/);
    expect(existsSync(PWNED_PATH)).toBe(false);
  });

  it('refuses an extern method without DllImport (it has no body)', () => {
    const o = attempt('static extern int system(string cmd);\nobject M() { return system("id"); }');
    expect(o.program.warnings).toEqual([
      "Script line 2: method system is left out: 'extern' (native code) is not allowed in a report script",
    ]);
    expect(scriptError(o).message).toMatch(/method system was left out/);
  });

  it('refuses File after `using System.IO;`, naming the line', () => {
    const o = attemptText(
      `using System;\nusing System.IO;\nnamespace FastReport {\npublic class ReportScript {\nobject M() {\n` +
        `return File.ReadAllText(${SECRET_LIT});\n}\n}\n}`,
    );
    expectRefused(o, /^'File' reaches outside the report and is not allowed in a report script$/, 6);
  });

  it('stops a new StreamReader after `using System.IO;` (no dot after the type: not refused at load)', () => {
    const o = attemptText(
      `using System.IO;\npublic class ReportScript {\nobject M() {\nvar r = new StreamReader(${SECRET_LIT});\n` +
        `var f = new FileStream(${SECRET_LIT}, FileMode.Open);\nreturn r.ReadToEnd();\n}\n}`,
    );
    expect(o.program.warnings).toEqual([]);
    expect(scriptError(o).message).toBe(
      "'new StreamReader' is not supported in a report script (script method M, line 4)",
    );
  });

  it('stops a File alias declared by a using', () => {
    const o = attemptText(
      `using F = System.IO.File;\nusing static System.IO.File;\npublic class ReportScript {\nobject M() {\n` +
        `return F.ReadAllText(${SECRET_LIT}) + ReadAllText(${SECRET_LIT});\n}\n}`,
    );
    expect(o.program.warnings).toEqual([]);
    expect(scriptError(o).message).toBe('unknown name "F" (script method M, line 5)');
  });

  it('refuses System.IO spread over lines, naming the line of .IO', () => {
    expectRefused(attempt(method(`return System\n  .IO.File.ReadAllText(${SECRET_LIT});`)), /'System\.IO'/, 4);
  });

  it('leaves a field that reads a file empty, naming the field and the line', () => {
    const o = attempt(`string leak = File.ReadAllText(${SECRET_LIT});\nobject M() { return leak; }`);
    expect(o.program.warnings).toEqual([
      "Script line 2: 'File' reaches outside the report and is not allowed in a report script; " +
        'the field leak starts empty',
    ]);
    expect(o.value).toBeNull();
  });

  it('rejects a whole script whose text cannot be read (a unicode escape in a name) with a SyntaxErr', () => {
    expect(() =>
      parseScript(`public class ReportScript {\nobject M() { return \\u0046ile.ReadAllText(${SECRET_LIT}); }\n}`),
    ).toThrow(SyntaxErr);
  });

  it('refuses System.IO inside any method, but keeps the harmless ones', () => {
    const o = attempt(
      `object Leak() {\nreturn System.IO.File.ReadAllText(${SECRET_LIT});\n}\nobject M() {\nreturn Rate * 21;\n}`,
    );
    expect(o.program.warnings).toEqual([
      "Script line 3: method Leak is left out: 'System.IO' is not allowed in a report script",
    ]);
    expect(o.value).toBe(42);
  });
});

describe('refused when loaded: modifiers, interpolations, nesting', () => {
  it.each([
    ['an extern method', 'static extern int GetTickCount();\nobject M() { return 1; }', 'GetTickCount', 2, /'extern'/],
    ['an unsafe method', 'unsafe object M() {\nreturn 1;\n}', 'M', 2, /'unsafe' code/],
    ['extern after other modifiers', 'private static extern int M();', 'M', 2, /'extern' \(native code\)/],
  ])('%s', (_label, members, name, line, why) => {
    const o = attempt(members);
    const m = o.program.methods.find((x) => x.name === name);
    expect(m?.body).toBeNull();
    expect(m?.refused).toMatch(why);
    expect(o.program.warnings).toContain(`Script line ${line}: method ${name} is left out: ${m?.refused}`);
  });

  it('leaves an unsafe field out', () => {
    const o = attempt('unsafe int f = 1;\nobject M() { return 1; }');
    expect(o.program.fields).toEqual([]);
    expect(o.program.warnings).toEqual([expect.stringMatching(/^Script line 2: field f is left out: 'unsafe' code/)]);
    expect(o.value).toBe(1);
  });

  it('refuses what a hole of an interpolated string reaches for', () => {
    expectRefused(attempt(method(`return $"{File.ReadAllText(${SECRET_LIT})}";`)), /'File' reaches outside/, 3);
    expectRefused(attempt(method('return $"{"x".GetType()}";')), /'GetType' \(reflection\)/, 3);
  });

  it('refuses type arguments nested 6,000 deep without running out of stack', () => {
    const deep = `${'List<'.repeat(6000)}int${'>'.repeat(6000)}`;
    for (const code of [`var l = new ${deep}(); return 1;`, `${deep} l = null; return 1;`]) {
      const o = attempt(method(code));
      expectRefused(o, /nested more than \d+ levels deep \(line 3\)/, 2);
    }
  });

  it('refuses interpolated strings nested too deep', () => {
    const deep = `${'$"{'.repeat(40)}1${'}"'.repeat(40)}`;
    expect(() => parseScript(`public class ReportScript {\n${method(`return ${deep};`)}\n}`)).toThrow(SyntaxErr);
  });
});

describe('stopped when it runs (what refusal does not catch reaches nothing)', () => {
  it.each([
    ['new StreamReader', `return new StreamReader(${SECRET_LIT}).ReadToEnd();`, /'new StreamReader' is not supported/],
    ['new FileInfo', `return new FileInfo(${SECRET_LIT}).Length;`, /'new FileInfo' is not supported/],
    [
      'new FileStream with FileMode',
      `return new FileStream(${SECRET_LIT}, FileMode.Open);`,
      /unknown name "FileMode.Open"/,
    ],
    ['a File alias from a using', `return F.ReadAllText(${SECRET_LIT});`, /unknown name "F"/],
    ['using static File', `return ReadAllText(${SECRET_LIT});`, /no method ReadAllText taking 1 arguments/],
    [
      'System.IO hidden by a comment',
      `return System/**/.IO.File.ReadAllText(${SECRET_LIT});`,
      /unknown name "System.IO.File"/,
    ],
    ['System.Activator', 'return System.Activator.CreateInstance(null);', /unknown name "System.Activator"/],
    ['System.Type', 'return System.Type.GetTypeFromProgID("x");', /unknown name "System.Type"/],
    ['System.AppDomain', 'return System.AppDomain.CurrentDomain;', /unknown name "System.AppDomain.CurrentDomain"/],
    [
      'a new Thread of a method',
      'var t = new Thread(M); t.Start(); return 1;',
      /'new Thread' is not supported in a report script/,
    ],
    ['Console.WriteLine', `Console.WriteLine(${SECRET_LIT}); return 1;`, /unknown name "Console"/],
    ['Console.ReadLine', 'return Console.ReadLine();', /unknown name "Console"/],
    [
      'new WebClient',
      'return new WebClient().DownloadString("http://example.com");',
      /'new WebClient' is not supported/,
    ],
    ['new HttpClient', 'return new HttpClient();', /'new HttpClient' is not supported/],
    ['Microsoft.Win32.Registry', 'return Microsoft.Win32.Registry.LocalMachine;', /unknown name "Microsoft.Win32/],
    ['the name constructor', 'return constructor;', /unknown name "constructor"/],
    ['the name __proto__', 'return __proto__;', /unknown name "__proto__"/],
    ['the name prototype', 'return prototype;', /unknown name "prototype"/],
    ['globalThis', 'return globalThis;', /unknown name "globalThis"/],
    ['process.env', 'return process.env;', /unknown name "process.env"/],
    ['process.mainModule', 'return process.mainModule;', /unknown name "process.mainModule"/],
    ['module.exports', 'return module.exports;', /unknown name "module.exports"/],
    ['require("fs")', 'return require("fs");', /the script has no method require taking 1 arguments/],
    ['import("fs")', 'return import("fs");', /the script has no method import taking 1 arguments/],
    ['eval', 'return eval("1 + 1");', /the script has no method eval taking 1 arguments/],
    ['setTimeout', 'return setTimeout(null, 1);', /the script has no method setTimeout/],
    ['an inherited method name', 'return hasOwnProperty("x");', /the script has no method hasOwnProperty/],
    ['toString() of the script', 'return toString();', /the script has no method toString taking 0/],
    ['new Function', 'return new Function("return process");', /'new Function' is not supported/],
    ['new Object', 'return new Object();', /'new Object' is not supported/],
    ['new ReportScript', 'return new ReportScript();', /'new ReportScript' is not supported/],
    ['"x".constructor', 'return "x".constructor;', /'string' has no property 'constructor'/],
    ['s.__proto__', 'string s = "abc"; return s.__proto__;', /'string' has no property '__proto__'/],
    ['"x".length (a JS property)', 'return "x".length;', /'string' has no property 'length'/],
    ['"x".charCodeAt (a JS method)', 'return "x".charCodeAt(0);', /'string' has no method 'charCodeAt'/],
    ['1.constructor', 'return 1.constructor;', /'int' has no property 'constructor'/],
    ['new List<int>().constructor', 'return new List<int>().constructor;', /'List' has no property 'constructor'/],
    ['a List __proto__', 'return new List<int>().__proto__;', /'List' has no property '__proto__'/],
    ['a List internal field', 'var l = new List<int>(); return l.list;', /'List' has no property 'list'/],
    ['a List budget field', 'var l = new List<int>(); return l.budget;', /'List' has no property 'budget'/],
    ['a List JS method', 'var l = new List<int>(); return l.call("Add", null, null);', /'List' has no method 'call'/],
    ['an array constructor', 'int[] a = new int[2]; return a.constructor;', /'Array' has no property 'constructor'/],
    ['an exception stack', 'var e = new Exception("m"); return e.stack;', /'Exception' has no property 'stack'/],
    ['Keys.constructor', 'var d = new Dictionary<string, int>(); return d.Keys.constructor;', /'List' has no/],
    ['this.constructor', 'return this.constructor;', /unknown name "this\.constructor"/],
    ['this.__proto__', 'return this.__proto__;', /unknown name "this\.__proto__"/],
    ['a string indexed by "constructor"', 'return "x"["constructor"];', /index must be an int/],
    ['a List indexed by "constructor"', 'return new List<int>()["constructor"];', /an index must be an int/],
    ['pollution through a string', 'var s = "x"; s.__proto__.polluted = 1; return 1;', /has no property '__proto__'/],
    ['pollution through a List', 'var l = new List<int>(); l.constructor.prototype.polluted = 1; return 1;', /'List'/],
    ['setting a JS property', 'var l = new List<int>(); l.length = 0; return 1;', /has no settable property 'length'/],
    ['Object.prototype', 'return Object.prototype;', /unknown name "Object.prototype"/],
    ['JSON', 'return JSON.stringify(1);', /unknown name "JSON"/],
  ])('%s', (_label, code, why) => {
    expectStopped(attempt(method(code)), why);
  });
});

describe('JavaScript names are ordinary names', () => {
  it('keeps "__proto__" and "constructor" as ordinary Dictionary and Hashtable keys', () => {
    const o = attempt(
      method(
        'var d = new Dictionary<string, object>(); d["__proto__"] = "p"; d["constructor"] = "c"; ' +
          'd.Add("prototype", "t"); var h = new Hashtable(); h["__proto__"] = "polluted"; h["polluted"] = 1; ' +
          'string keys = ""; foreach (var kv in d) keys += kv.Key + "=" + kv.Value + ";"; ' +
          'return keys + d.Count + h.Count + (h["toString"] == null) + d.ContainsKey("hasOwnProperty");',
      ),
    );
    expect(o.error).toBeUndefined();
    expect(o.value).toBe('__proto__=p;constructor=c;prototype=t;32TrueFalse');
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('keeps "__proto__" as an initializer key and reads it back', () => {
    const o = attempt(
      method('var d = new Dictionary<string, int> { { "__proto__", 1 }, { "polluted", 2 } }; return d["__proto__"];'),
    );
    expect(o.value).toBe(1);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('lets a script name its own fields, locals and methods constructor, __proto__, toString', () => {
    const o = attempt(
      'int __proto__ = 5; int constructor = 6;\nobject toString() { return "mine"; }\n' +
        'object M() { int prototype = 1; __proto__++; return toString() + (__proto__ + constructor + prototype); }',
    );
    expect(o.value).toBe('mine13');
    expect(({} as any).polluted).toBeUndefined();
    expect(typeof ({} as any).toString).toBe('function');
  });
});

describe('resource attacks end with a limit, quickly', () => {
  it.each([
    ['while (true)', method('while (true) { }'), /more than 100000 steps/, 'M', 3],
    ['for (;;)', method('for (;;) { }'), /more than 100000 steps/, 'M', 3],
    ['do … while (true)', method('do { } while (true);'), /more than 100000 steps/, 'M', 3],
    ['a counting loop', method('int i = 0; while (true) i++;'), /more than 100000 steps/, 'M', 3],
    [
      'nested loops',
      method('long s = 0; for (int i = 0; i < 100000; i++) for (int j = 0; j < 100000; j++) s++;'),
      /steps/,
      'M',
      3,
    ],
    [
      'a catch around the loop',
      method('while (true) { try { while (true) { } } catch (Exception e) { } }'),
      /steps/,
      'M',
      3,
    ],
    ['a loop in finally', method('try { while (true) { } } finally { while (true) { } }'), /steps/, 'M', 3],
    ['recursion', 'int M() {\nreturn M();\n}', /calls nest more than 50 deep/, 'M', 3],
    ['expression-bodied recursion', 'int M() => M();', /calls nest more than 50 deep/, 'M', 2],
    [
      'recursion with an argument',
      'int M() {\nreturn Deep(0);\n}\nint Deep(int n) {\nreturn 1 + Deep(n + 1);\n}',
      /50 deep/,
      'Deep',
      6,
    ],
    [
      'mutual recursion',
      'int M() {\nreturn A(0);\n}\nint A(int n) {\nreturn B(n);\n}\nint B(int n) {\nreturn A(n);\n}',
      /50 deep/,
      'A',
      6,
    ],
    [
      'a catch around recursion',
      'int M() {\ntry { return M(); } catch (Exception e) { return -1; }\n}',
      /50 deep/,
      'M',
      3,
    ],
    [
      'new int[int.MaxValue]',
      method('var a = new int[int.MaxValue]; return a.Length;'),
      /more than 10000 collection items/,
      'M',
      3,
    ],
    ['new long[2147483647]', method('var a = new long[2147483647]; return a.Length;'), /collection items/, 'M', 3],
    ['List.Add in a loop', method('var l = new List<int>(); while (true) l.Add(1);'), /collection items/, 'M', 3],
    [
      'List.AddRange doubling',
      method('var l = new List<int> { 1 }; while (true) l.AddRange(l);'),
      /collection items/,
      'M',
      3,
    ],
    ['Lists of Lists', method('var l = new List<List<int>>(); while (true) l.Add(new List<int>());'), /items/, 'M', 3],
    [
      'a catch around List.Add',
      method('var l = new List<int>(); while (true) { try { l.Add(1); } catch { } }'),
      /items/,
      'M',
      3,
    ],
    [
      'a giant Dictionary',
      method('var d = new Dictionary<int, int>(); for (int i = 0; ; i++) d[i] = i;'),
      /items/,
      'M',
      3,
    ],
    [
      'Dictionary.Add',
      method('var d = new Dictionary<string, int>(); for (int i = 0; ; i++) d.Add("k" + i, i);'),
      /items/,
      'M',
      3,
    ],
    [
      'copies of a List',
      method('var l = new List<int>(new int[1000]); while (true) { var a = l.ToArray(); }'),
      /items/,
      'M',
      3,
    ],
    [
      's += s',
      method('string s = "x"; while (true) s += s;'),
      /a string of \d+ characters is longer than the limit/,
      'M',
      3,
    ],
    [
      'String.Concat doubling',
      method('string s = "x"; while (true) s = String.Concat(s, s);'),
      /longer than the limit/,
      'M',
      3,
    ],
    [
      'String.Format doubling',
      method('string s = "x"; while (true) s = String.Format("{0}{0}", s);'),
      /longer/,
      'M',
      3,
    ],
    ['PadLeft(int.MaxValue)', method('return "x".PadLeft(int.MaxValue);'), /2147483647 characters is longer/, 'M', 3],
    [
      'String.Join of a giant array',
      method('return String.Join(",", new int[int.MaxValue]);'),
      /collection items/,
      'M',
      3,
    ],
  ])('%s', (_label, members, why, where, line) => {
    const o = attempt(members);
    expect(o.program.warnings).toEqual([]);
    const e = scriptError(o);
    expect(e.limit).toBe(true);
    expect(e.message).toMatch(why);
    expect(e.message).toMatch(new RegExp(`\\(script method ${where}, line ${line}\\)$`));
    expect(o.ms).toBeLessThan(QUICK_MS);
  });

  it('stops a field initialiser and a constructor that never end', () => {
    const field = attempt('int f = Loop();\nint Loop() {\nwhile (true) { }\n}\nobject M() { return f; }');
    expect(scriptError(field).limit).toBe(true);
    expect(scriptError(field).message).toMatch(/steps \(script method Loop, line 4\)$/);
    const ctor = attempt('public ReportScript() {\nwhile (true) { }\n}\nobject M() { return 1; }');
    expect(scriptError(ctor).limit).toBe(true);
    expect(scriptError(ctor).message).toMatch(/steps \(script method \.ctor, line 3\)$/);
    const big = attempt('List<int> big = new List<int>(new int[100000]);\nobject M() { return big.Count; }');
    expect(scriptError(big).limit).toBe(true);
    expect(scriptError(big).message).toMatch(/collection items \(script method field big, line 2\)$/);
  });

  /** Loops whose every step walks a whole collection or string: each walk costs its length. */
  it.each([
    ['Array.Contains', 'var a = new int[5000]; while (true) a.Contains(1);'],
    ['List.Contains', 'var l = new List<int>(new int[5000]); while (true) l.Contains(1);'],
    ['List.IndexOf', 'var l = new List<int>(new int[5000]); while (true) l.IndexOf(1);'],
    ['List.Remove of a missing item', 'var l = new List<int>(new int[5000]); while (true) l.Remove(1);'],
    ['List.Sort', 'var l = new List<int>(new int[5000]); while (true) l.Sort();'],
    ['List.Reverse', 'var l = new List<int>(new int[5000]); while (true) l.Reverse();'],
    [
      'List.Insert at the front',
      'var l = new List<int>(new int[3000]); while (true) { l.Insert(0, 1); l.RemoveAt(0); }',
    ],
    [
      'Dictionary.ContainsValue',
      'var d = new Dictionary<int, int>(); for (int i = 0; i < 4000; i++) d[i] = i; while (true) d.ContainsValue(-1);',
    ],
    ['String.Join of a List', 'var l = new List<int>(new int[5000]); while (true) String.Join(",", l);'],
    ['foreach that leaves at once', 'var a = new int[5000]; while (true) { foreach (int x in a) break; }'],
    ['string.IndexOf', 'string s = "x".PadLeft(1000000); while (true) s.IndexOf("z");'],
    ['string.Contains', 'string s = "x".PadLeft(1000000); while (true) s.Contains("z");'],
    ['string ==', 'string s = "x".PadLeft(1000000), t = "y".PadLeft(1000000); while (true) { if (s == t) break; }'],
    ['String.Compare', 'string s = "x".PadLeft(1000000), t = s.Replace("x", "y"); while (true) String.Compare(s, t);'],
  ])('a loop of %s ends with the step limit', (_label, code) => {
    const o = attempt(method(code));
    expect(o.program.warnings).toEqual([]);
    const e = scriptError(o);
    expect(e.limit).toBe(true);
    expect(e.message).toMatch(/more than 100000 steps/);
    expect(o.ms).toBeLessThan(QUICK_MS);
  });

  it('ends walks of a 1,000,000-item collection in a loop under the default limits', () => {
    for (const code of [
      'var a = new int[1000000]; int n = 0; while (true) { if (a.Contains(5)) n++; }',
      'var a = new int[1000000]; while (true) { foreach (int x in a) break; }',
      'string s = "x".PadLeft(10000000); while (true) s.IndexOf("z");',
    ]) {
      const program = parseScript(`public class ReportScript {\n${method(code)}\n}`);
      const rt = new ScriptRuntime(program, host);
      const started = Date.now();
      const e = (() => {
        try {
          rt.guard(() => rt.call('M', []));
        } catch (x) {
          return x;
        }
      })();
      expect(e).toBeInstanceOf(ScriptError);
      expect((e as ScriptError).limit).toBe(true);
      expect((e as ScriptError).message).toMatch(/more than 20000000 steps/);
      expect(Date.now() - started).toBeLessThan(3 * QUICK_MS);
    }
  });

  it('charges an array its length once', () => {
    const o = attempt(method('var a = new int[6000]; return a.Length;'));
    expect(o.value).toBe(6000);
    expect(scriptError(attempt(method('var a = new int[10001]; return a.Length;'))).message).toMatch(
      /10000 collection items/,
    );
  });

  it('refuses array lengths that are not ints without allocating', () => {
    for (const length of ['-1', '1e300', '1.5', 'long.MaxValue']) {
      const o = attempt(method(`var a = new int[${length}]; return a.Length;`));
      expect(scriptError(o).message).toMatch(/an array length must be a non-negative int \(script method M, line 3\)/);
      expect(o.ms).toBeLessThan(QUICK_MS);
    }
  });
});

describe('nothing got through', () => {
  it.each([
    ['File.ReadAllText', `return File.ReadAllText(${SECRET_LIT});`],
    ['File.OpenText', `return File.OpenText(${SECRET_LIT}).ReadToEnd();`],
    ['File.ReadAllLines', `return File.ReadAllLines(${SECRET_LIT})[0];`],
    ['System.IO.File', `return System.IO.File.ReadAllText(${SECRET_LIT});`],
    ['a StreamReader', `var r = new StreamReader(${SECRET_LIT}); return r.ReadLine();`],
    ['a FileStream', `var f = new FileStream(${SECRET_LIT}, 3); return f.ReadByte();`],
    ['a Directory listing', `return String.Join(",", Directory.GetFiles(${DIR_LIT}));`],
    ['a hidden System.IO', `return System/**/.IO.File.ReadAllText(${SECRET_LIT});`],
    [
      'a catch around the read',
      `try { return File.ReadAllText(${SECRET_LIT}); } catch (Exception e) { return e.Message; }`,
    ],
    [
      'a catch around a StreamReader',
      `try { return new StreamReader(${SECRET_LIT}).ReadToEnd(); } catch (Exception e) { return e.Message; }`,
    ],
  ])('reading the secret file by %s gives nothing of it', (_label, code) => {
    const o = attempt(method(code));
    const seen = [
      ...o.program.warnings,
      JSON.stringify(o.value ?? null),
      String((o.error as Error | undefined)?.message),
    ];
    for (const s of seen) expect(s).not.toContain(SECRET);
    // Either refused or stopped or caught: never the contents.
    expect(o.value === undefined || (typeof o.value === 'string' && !o.value.includes(SECRET))).toBe(true);
    expect(o.error !== undefined || typeof o.value === 'string').toBe(true);
  });

  it.each([
    ['Process.Start', `Process.Start("touch", ${PWNED_LIT}); return 1;`],
    ['System.Diagnostics.Process.Start', `System.Diagnostics.Process.Start("touch", ${PWNED_LIT}); return 1;`],
    ['a ProcessStartInfo', `var p = new ProcessStartInfo("touch", ${PWNED_LIT}); return p;`],
    ['File.WriteAllText', `File.WriteAllText(${PWNED_LIT}, "x"); return 1;`],
    ['File.Create', `File.Create(${PWNED_LIT}); return 1;`],
    ['a StreamWriter', `var w = new StreamWriter(${PWNED_LIT}); w.Write("x"); return 1;`],
  ])('%s does not create the file', (_label, code) => {
    const o = attempt(method(code));
    expect(o.error).toBeInstanceOf(ScriptError);
    expect(existsSync(PWNED_PATH)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Through a whole report

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function report(members: string): string {
  const script = `using System;\nnamespace FastReport {\npublic class ReportScript {\nint total = 7;\n${members}\n}\n}`;
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp">
  <ScriptText>${esc(script)}</ScriptText>
  <Dictionary/>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title1" Width="718.2" Height="20" BeforePrintEvent="Title1_BeforePrint">
      <TextObject Name="Out" Width="300" Height="20" Text="[total]"/>
    </ReportTitleBand>
  </ReportPage>
</Report>`;
}

/** A BeforePrint handler of the title band with `code` on script line 6. */
const handler = (code: string): string => `void Title1_BeforePrint(object sender, EventArgs e) {\n${code}\n}`;

describe('hostile scripts in a report', () => {
  it.each([
    ['System.IO', `total = System.IO.File.ReadAllText(${SECRET_LIT}).Length;`, /'System\.IO' is not allowed/],
    ['Process.Start', `Process.Start("touch", ${PWNED_LIT});`, /'Process' reaches outside/],
    ['reflection', 'total = typeof(string).Assembly.GetTypes().Length;', /'typeof' \(reflection\)/],
    ['Environment.Exit', 'Environment.Exit(3);', /'Environment' reaches outside/],
  ])('refuses a %s handler with a warning naming its line; the report renders', (_label, code, why) => {
    const { prepared, warnings } = runTemplate(report(handler(code)));
    record({ warnings });
    expect(textsOf(prepared, 'Out')).toEqual(['7']);
    expect(warnings[0]).toMatch(/^Script line 6: method Title1_BeforePrint is left out: /);
    expect(warnings[0]).toMatch(why);
    expect(warnings).toContain(
      'Title1.BeforePrintEvent: the script has no runnable method Title1_BeforePrint; it is skipped',
    );
    expect(existsSync(PWNED_PATH)).toBe(false);
  });

  it.each([
    ['Report.constructor', 'total = Report.constructor.length;'],
    ['constructor', 'total = constructor;'],
    ['a string constructor', 'total = "x".constructor.name.Length;'],
    ['require', 'var fs = require("fs"); total = 1;'],
    ['a StreamReader', `total = new StreamReader(${SECRET_LIT}).ReadToEnd().Length;`],
  ])('skips a handler reaching %s with a warning; the report renders', (_label, code) => {
    const { prepared, warnings } = runTemplate(report(handler(code)));
    record({ warnings });
    expect(textsOf(prepared, 'Out')).toEqual(['7']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Title1\.BeforePrintEvent: .*\(script method Title1_BeforePrint, line 6\); the handler is skipped from here on$/,
    );
  });

  it('leaves a field initializer that reads a file empty; the report renders', () => {
    const { prepared, warnings } = runTemplate(
      report(`string leak = File.ReadAllText(${SECRET_LIT});\n${handler('total = leak == null ? 8 : 9;')}`),
    );
    record({ warnings });
    expect(textsOf(prepared, 'Out')).toEqual(['8']);
    expect(warnings).toEqual([
      "Script line 5: 'File' reaches outside the report and is not allowed in a report script; " +
        'the field leak starts empty',
    ]);
  });

  it('treats "__proto__" as an ordinary key in a handler', () => {
    const { prepared, warnings } = runTemplate(
      report(
        handler(
          'var d = new Dictionary<string, int>(); d["__proto__"] = 5; d["polluted"] = 1; total = d["__proto__"];',
        ),
      ),
    );
    expect(warnings).toEqual([]);
    expect(textsOf(prepared, 'Out')).toEqual(['5']);
    expect(({} as any).polluted).toBeUndefined();
  });

  /** The error a render ends with (and how long it took to end). */
  function renderError(members: string): { error: unknown; ms: number } {
    const started = Date.now();
    try {
      runTemplate(report(members));
    } catch (error) {
      record({ error });
      return { error, ms: Date.now() - started };
    }
    throw new Error('the report rendered');
  }

  it.each([
    [
      'a handler that loops forever',
      handler('while (true) { total++; }'),
      /^Title1\.BeforePrintEvent: .*more than \d+ steps/,
      'Title1_BeforePrint, line 6',
    ],
    [
      'a field initializer that loops forever',
      'int spin = Spin();\nint Spin() {\nwhile (true) { }\n}',
      /^ScriptText: .*steps/,
      'Spin, line 7',
    ],
    [
      'runaway recursion',
      `int F(int n) {\nreturn F(n + 1);\n}\n${handler('total = F(0);')}`,
      /calls nest more than \d+ deep/,
      'F, line 6',
    ],
    [
      'runaway allocation',
      handler('var l = new List<string>(); while (true) l.Add("x");'),
      /collection items/,
      'Title1_BeforePrint, line 6',
    ],
    [
      'string doubling',
      handler('string s = "x"; while (true) s += s;'),
      /longer than the limit/,
      'Title1_BeforePrint, line 6',
    ],
  ])('ends the render with a TemplateError on %s', (_label, members, why, where) => {
    const { error, ms } = renderError(members);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toContain(`(script method ${where})`);
    expect(ms).toBeLessThan(20_000);
  });
});

// Last: after every attempt above, in this file and through the reports.
describe('after all the attempts', () => {
  it('never showed the secret in any value, warning or error, created nothing, polluted nothing', () => {
    expect(transcript.length).toBeGreaterThan(200);
    for (const s of transcript) expect(s).not.toContain(SECRET);
    expect(readdirSync(DIR)).toEqual(['secret.txt']);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });
});
