// A report script (the C# of <ScriptText>) → its fields and methods. `using` lines and the
// namespace are read past; the members of `class ReportScript` are parsed; other classes and
// members a report script cannot have are left out with a warning naming their line. A method
// that uses something a report script may not (files, processes, reflection, threads, native
// code) or that does not parse is kept as refused: its handler is skipped, the report
// still renders.

import { type Hole, type Token, SyntaxErr, lexAt } from '../expr/lexer.js';
import type { FieldDecl, MethodDecl, Parameter, ScriptProgram, Stmt } from './ast.js';
import { StatementParser } from './statements.js';

/** Names whose members reach outside the report (`File.ReadAllText`, `Process.Start`). */
const OUTSIDE_TYPES = new Set([
  'File',
  'Directory',
  'FileInfo',
  'DirectoryInfo',
  'FileStream',
  'StreamReader',
  'StreamWriter',
  'Process',
  'Assembly',
  'Activator',
  'AppDomain',
  'Thread',
  'ThreadPool',
  'Task',
  'Parallel',
  'Environment',
  'Marshal',
  'Registry',
  'WebClient',
  'HttpClient',
  'WebRequest',
  'Socket',
  'TcpClient',
]);
/** `System.X` namespaces that reach outside the report. */
const OUTSIDE_NAMESPACES = new Set(['IO', 'Reflection', 'Diagnostics', 'Threading', 'Net', 'Runtime', 'Web']);
/** Words that are refused wherever they appear. */
const REFUSED_WORDS: Readonly<Record<string, string>> = {
  typeof: "'typeof' (reflection)",
  GetType: "'GetType' (reflection)",
  unsafe: "'unsafe' code",
  fixed: "'fixed' (pointers)",
  stackalloc: "'stackalloc'",
  extern: "'extern' (native code)",
  DllImport: "'DllImport' (native code)",
  __arglist: "'__arglist'",
};

/** `{ get; set; }`, `{ get; private set; }`, `{ get; init; }`, `{ get; }`. */
const ACCESS = '((public|private|protected|internal)\\s+)?';
const AUTO_PROPERTY = new RegExp(`^\\{\\s*${ACCESS}get\\s*;\\s*(${ACCESS}(set|init)\\s*;)?\\s*\\}$`);

const MODIFIERS = new Set([
  'public',
  'private',
  'protected',
  'internal',
  'static',
  'readonly',
  'const',
  'override',
  'virtual',
  'new',
  'sealed',
  'abstract',
  'partial',
  'volatile',
  'async',
  'unsafe',
  'extern',
]);

/** Why the tokens from `start` to `end` may not run in a report script (undefined: they may). */
export function refusedIn(src: string, start: number, end: number): { why: string; pos: number } | undefined {
  let prev: Token | undefined;
  for (let t = lexAt(src, start); t.kind !== 'eof' && t.pos < end; t = lexAt(src, t.end)) {
    // The holes of an interpolated string are code too.
    for (const hole of t.interpolation ?? []) {
      const no = typeof hole === 'string' ? undefined : refusedInHole(src, hole);
      if (no) return no;
    }
    if (t.kind === 'id') {
      const word = Object.hasOwn(REFUSED_WORDS, t.text) ? REFUSED_WORDS[t.text] : undefined;
      if (word) return { why: `${word} is not allowed in a report script`, pos: t.pos };
      const next = lexAt(src, t.end);
      const dotted = next.kind === 'op' && next.text === '.';
      if (dotted && OUTSIDE_TYPES.has(t.text) && !(prev?.kind === 'op' && prev.text === '.'))
        return { why: `'${t.text}' reaches outside the report and is not allowed in a report script`, pos: t.pos };
      if (prev?.kind === 'op' && prev.text === '.' && OUTSIDE_NAMESPACES.has(t.text) && systemBefore(src, prev))
        return { why: `'System.${t.text}' is not allowed in a report script`, pos: t.pos };
    }
    prev = t;
  }
  return undefined;
}

/** refusedIn for a hole `{expr,alignment:format}`: the format is free text, where the scan
 *  stops at what is no token (the expression before it, scanned, must parse to run). */
function refusedInHole(src: string, hole: Hole): { why: string; pos: number } | undefined {
  try {
    return refusedIn(src, hole.start, hole.end);
  } catch (e) {
    if (e instanceof SyntaxErr) return undefined;
    throw e;
  }
}

/** The identifier before a `.` token is `System`. */
function systemBefore(src: string, dot: Token): boolean {
  return /\bSystem\s*$/.test(src.slice(Math.max(0, dot.pos - 20), dot.pos));
}

/** Blanks preprocessor lines (`#region`, `#if`), keeping every offset. */
function withoutDirectives(src: string): string {
  return src.replace(/^[ \t]*#[^\r\n]*/gm, (line) => ' '.repeat(line.length));
}

class ScriptParser extends StatementParser {
  readonly fields: FieldDecl[] = [];
  readonly methods: MethodDecl[] = [];
  readonly warnings: string[] = [];
  private readonly lineStarts: number[];

  constructor(src: string) {
    super(src, 256);
    this.lineStarts = [0];
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') this.lineStarts.push(i + 1);
  }

  lineOf = (pos: number): number => {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };

  private atEnd(): boolean {
    return this.tok.kind === 'eof';
  }

  private warn(pos: number, message: string): void {
    this.warnings.push(`Script line ${this.lineOf(pos)}: ${message}`);
  }

  /** The offset after the bracket closing the one at the current token (`{`, `(` or `[`). */
  private skipBalanced(): void {
    const open = this.tok.text;
    const close = open === '{' ? '}' : open === '(' ? ')' : ']';
    let depth = 0;
    for (;;) {
      const t = this.tok;
      if (t.kind === 'eof') throw this.error(`'${close}' expected at the end`);
      this.advance();
      if (t.kind === 'op' && t.text === open) depth++;
      else if (t.kind === 'op' && t.text === close && --depth === 0) return;
    }
  }

  /** The whole script: usings, namespaces, classes. */
  parseScript(): void {
    while (!this.atEnd()) {
      if (this.isWord('using')) {
        while (!this.isOp(';') && !this.atEnd()) this.advance();
        this.advance();
      } else if (this.isWord('namespace')) {
        this.advance();
        this.parseTypeName();
        if (this.isOp(';')) this.advance();
        else this.expectOp('{');
      } else if (this.isOp('}') || this.isOp(';')) {
        this.advance();
      } else if (this.isOp('[')) {
        this.skipBalanced();
      } else if (this.tok.kind === 'id' && MODIFIERS.has(this.tok.text)) {
        this.advance();
      } else if (this.isWord('class')) {
        this.parseClass();
      } else {
        const pos = this.tok.pos;
        this.warn(pos, `'${this.tok.text}' outside class ReportScript is ignored`);
        this.skipMember();
      }
    }
  }

  private parseClass(): void {
    const pos = this.advance().pos;
    const name = this.expectName();
    while (!this.isOp('{') && !this.atEnd()) this.advance();
    if (name !== 'ReportScript') {
      this.warn(pos, `class ${name} is ignored (only class ReportScript is read)`);
      this.skipBalanced();
      return;
    }
    this.expectOp('{');
    while (!this.isOp('}')) {
      if (this.atEnd()) throw this.error("'}' expected at the end of class ReportScript");
      this.parseMember();
    }
    this.advance();
  }

  /** Skips to the end of a member: its `;` or its balanced `{ … }`. */
  private skipMember(): void {
    while (!this.atEnd() && !this.isOp(';') && !this.isOp('{')) {
      if (this.isOp('(') || this.isOp('[')) this.skipBalanced();
      else this.advance();
    }
    if (this.isOp('{')) this.skipBalanced();
    else if (this.isOp(';')) this.advance();
  }

  private parseMember(): void {
    let attribute: string | undefined;
    let modifier: string | undefined;
    let isStatic = false;
    while (this.isOp('[') || (this.tok.kind === 'id' && MODIFIERS.has(this.tok.text))) {
      if (this.isOp('[')) {
        const from = this.tok.pos;
        this.skipBalanced();
        const text = this.src.slice(from, this.tok.pos);
        if (/DllImport|UnmanagedFunctionPointer/.test(text)) attribute = text.trim();
      } else {
        if (this.tok.text === 'static' || this.tok.text === 'const') isStatic = true;
        // A modifier that is native code or pointers refuses the member like the words do.
        if (this.tok.text === 'extern' || this.tok.text === 'unsafe') modifier ??= this.tok.text;
        this.advance();
      }
    }
    if (['class', 'struct', 'enum', 'interface', 'delegate', 'event', 'record'].some((w) => this.isWord(w))) {
      this.warn(this.tok.pos, `a nested ${this.tok.text} is not supported; it is ignored`);
      this.skipMember();
      return;
    }
    const refused = attribute
      ? `${attribute} (native code) is not allowed in a report script`
      : modifier
        ? `${REFUSED_WORDS[modifier]} is not allowed in a report script`
        : undefined;
    const declared = this.tok.pos;
    const type = this.parseTypeName();
    if (this.isOp('(')) {
      // A constructor: run when the script starts, like a field initializer.
      this.parseMethod(type, '.ctor', declared, refused);
      return;
    }
    const namePos = this.tok.pos;
    const name = this.expectName();
    if (this.isOp('(')) {
      this.parseMethod(type, name, declared, refused);
      return;
    }
    if (this.isOp('{')) {
      this.parseProperty(type, name, namePos, isStatic);
      return;
    }
    if (refused) {
      this.warn(namePos, `field ${name} is left out: ${refused}`);
      this.skipMember();
      return;
    }
    this.parseFields(type, name, namePos, isStatic);
  }

  private parseFields(type: string, first: string, pos: number, isStatic: boolean): void {
    let name = first;
    let namePos = pos;
    for (;;) {
      let init = null;
      if (this.isOp('=')) {
        this.advance();
        const from = this.tok.pos;
        init = this.isOp('{') ? this.arrayInitializer() : this.parseAssignment();
        const no = refusedIn(this.src, from, this.tok.pos);
        if (no) {
          this.warn(no.pos, `${no.why}; the field ${name} starts empty`);
          init = null;
        }
      }
      this.fields.push({ name, type, init, line: this.lineOf(namePos), isStatic });
      if (!this.isOp(',')) break;
      this.advance();
      namePos = this.tok.pos;
      name = this.expectName();
    }
    this.expectOp(';');
  }

  /** `{ get; set; } = init;` is a field; a property with code is left out. */
  private parseProperty(type: string, name: string, pos: number, isStatic: boolean): void {
    const from = this.tok.pos;
    this.skipBalanced();
    const body = this.src.slice(from, this.tok.pos).trim();
    if (!AUTO_PROPERTY.test(body)) {
      this.warn(pos, `property ${name} has code, which is not supported; it is ignored`);
      if (this.isOp('=') || this.isOp(';')) this.skipMember();
      return;
    }
    let init = null;
    if (this.isOp('=')) {
      this.advance();
      init = this.parseAssignment();
      this.expectOp(';');
    }
    this.fields.push({ name, type, init, line: this.lineOf(pos), isStatic });
  }

  private parseMethod(returnType: string, name: string, start: number, refusedBy: string | undefined): void {
    const line = this.lineOf(start);
    const params = this.parseParams();
    let body: Stmt | null = null;
    let refused: string | null = refusedBy ?? null;
    const bodyStart = this.tok.pos;
    if (this.isOp(';')) {
      this.advance();
      refused ??= 'a method without a body';
      this.warn(start, `method ${name} is left out: ${refused}`);
      this.methods.push({ name, returnType, params, body: null, line, refused });
      return;
    }
    const arrow = this.isOp('=>');
    const saved = this.tok;
    // Find the end first, so that a method that does not parse can be skipped.
    if (arrow) {
      while (!this.isOp(';') && !this.atEnd()) {
        if (this.isOp('(') || this.isOp('[') || this.isOp('{')) this.skipBalanced();
        else this.advance();
      }
      this.advance();
    } else this.skipBalanced();
    const after = this.tok;
    const no = refusedIn(this.src, bodyStart, after.pos);
    if (no) refused ??= no.why;
    if (refused === null) {
      this.tok = saved;
      try {
        if (arrow) {
          this.advance();
          const x = this.parseAssignment();
          body = { k: 'return', pos: x.pos, x };
          this.expectOp(';');
        } else body = this.parseBlock();
      } catch (e) {
        if (!(e instanceof SyntaxErr)) throw e;
        refused = `${e.message} (line ${this.lineOf(e.pos)})`;
        body = null;
      }
      this.tok = after;
    }
    if (refused !== null) this.warn(no?.pos ?? start, `method ${name} is left out: ${refused}`);
    this.methods.push({ name, returnType, params, body: refused === null ? body : null, line, refused });
  }

  private parseParams(): Parameter[] {
    this.expectOp('(');
    const params: Parameter[] = [];
    while (!this.isOp(')')) {
      if (this.isWord('ref') || this.isWord('out') || this.isWord('params') || this.isWord('this'))
        throw this.error(`'${this.tok.text}' parameters are not supported`);
      const type = this.parseTypeName();
      const name = this.expectName();
      let init = null;
      if (this.isOp('=')) {
        this.advance();
        init = this.parseExpression();
      }
      params.push({ type, name, init });
      if (!this.isOp(',')) break;
      this.advance();
    }
    this.expectOp(')');
    return params;
  }
}

/** Parses a report script. A script that cannot be read at all (its class does not close, a
 *  member does not parse) throws SyntaxErr; a method that does not parse is only refused. */
export function parseScript(text: string): ScriptProgram {
  const p = new ScriptParser(withoutDirectives(text));
  p.parseScript();
  return { fields: p.fields, methods: p.methods, warnings: p.warnings, lineOf: p.lineOf };
}
