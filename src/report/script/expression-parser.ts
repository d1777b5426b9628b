// Expressions as report scripts write them: the expression parser (src/report/expr) with what
// only scripts may do — assignments (`=`, `+=` … `??=`), `++`/`--`, calls of the script's own
// methods, `new` of any type (with type arguments, array lengths and initializers), `is`/`as`
// and `this.` — as the node kinds of expr/ast.ts that only a script's evaluation hooks evaluate.

import type { Node } from '../expr/ast.js';
import { type Hole, lexAt, type Token } from '../expr/lexer.js';
import { BINARY_PREC } from '../expr/parse-tables.js';
import { Parser } from '../expr/parser.js';

/** The precedence of `<`, `>`, `is` and `as`. */
const RELATIONAL_PREC = BINARY_PREC['<'] as number;

/** Assignment operators (`??=`, `<<=`, `>>=` are lexed as two tokens). */
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=']);

export class ScriptExpressionParser extends Parser {
  /** Script mode: an expression that may assign (`a = b`, `x += 1`, right-associative). */
  protected parseAssignment(): Node {
    const target = this.parseExpression();
    const op = this.assignmentOp();
    if (op === undefined) return target;
    if (target.k !== 'chain' && target.k !== 'member' && target.k !== 'index' && target.k !== 'ref')
      throw this.error('only a variable, a property or an indexer can be assigned');
    this.enter();
    const value = this.parseAssignment();
    this.leave();
    return this.mk({ k: 'assign', pos: target.pos, target, op, value }, target, value);
  }

  /** Reads an assignment operator in script mode (undefined when there is none). */
  private assignmentOp(): string | undefined {
    if (this.tok.kind !== 'op') return undefined;
    const t = this.tok.text;
    if (ASSIGN_OPS.has(t)) {
      this.advance();
      return t;
    }
    if ((t === '??' || t === '<<' || t === '>>') && this.src[this.tok.end] === '=') {
      const end = this.tok.end + 1;
      this.tok = lexAt(this.src, end);
      return `${t}=`;
    }
    return undefined;
  }

  protected override typeTest(left: Node, minPrec: number): Node | null {
    if (minPrec > RELATIONAL_PREC) return null;
    const op = this.advance().text as 'is' | 'as';
    const type = this.parseTypeName();
    return this.mk({ k: 'typetest', pos: left.pos, op, x: left, type }, left);
  }

  protected override prefixIncDec(): Node {
    const t = this.advance();
    const target = this.parseUnary();
    return this.mk({ k: 'incdec', pos: t.pos, target, op: t.text as '++', prefix: true }, target);
  }

  protected override postfixIncDec(node: Node): Node {
    const op = this.advance().text as '++';
    return this.mk({ k: 'incdec', pos: node.pos, target: node, op, prefix: false }, node);
  }

  /** `this.total` is the script's field `total` (a name `this.total` the interpreter looks up as
   *  the field, where a local `total` would hide it); `this.F()` its method. */
  protected override parseThis(pos: number): Node {
    if (!this.isOp('.')) throw this.error("'this' is only allowed before a member of the script", pos);
    this.advance();
    if (this.tok.kind !== 'id') throw this.error('a member name is expected');
    return this.parsePostfix(thisMember(this.parseIdentifier()));
  }

  /** `$"a{x,5:N2}b"` is `String.Format("a{0,5:N2}b", x)`: the holes are parsed here and formatted
   *  by the expression engine's composite formatting, as .NET formats them. */
  protected override interpolated(t: Token): Node {
    let format = '';
    const args: Node[] = [];
    this.enter();
    try {
      for (const part of t.interpolation ?? []) {
        if (typeof part === 'string') format += part.replace(/[{}]/g, (c) => c + c);
        else format += this.hole(part, args, /^(\$@|@\$)/.test(t.text));
      }
    } finally {
      this.leave();
    }
    this.tok = lexAt(this.src, t.end);
    const text = this.mk({ k: 'lit', pos: t.pos, v: format });
    if (args.length === 0) return this.mk({ k: 'lit', pos: t.pos, v: (t.interpolation ?? []).join('') });
    const all = [text, ...args];
    return this.mkArgs({ k: 'scall', pos: t.pos, type: 'String', method: 'Format', args: all }, all);
  }

  /** One hole `{expr[,alignment][:format]}`: its expression joins `args`; its format item. */
  private hole(h: Hole, args: Node[], verbatim: boolean): string {
    this.tok = lexAt(this.src, h.start);
    if (this.tok.pos >= h.end) throw this.error('an expression is expected in an interpolated string');
    args.push(this.parseExpression());
    let item = `{${args.length - 1}`;
    if (this.isOp(',') && this.tok.pos < h.end) {
      this.advance();
      const minus = this.isOp('-') ? this.advance().text : '';
      if (this.tok.kind !== 'num' || typeof this.tok.value !== 'number')
        throw this.error('an alignment must be an int constant');
      item += `,${minus}${this.advance().text}`;
    }
    if (this.isOp(':') && this.tok.pos < h.end) {
      // The format is text of the string: its escapes are read (`{t:hh\\:mm}` is hh\:mm).
      const raw = this.src.slice(this.tok.end, h.end);
      const text = verbatim || !raw.includes('\\') ? raw : lexAt(`"${raw}"`, 0).value;
      item += `:${String(text).replace(/[{}]/g, (c) => c + c)}`;
    } else if (this.tok.pos !== h.end) throw this.error(`unexpected '${this.tok.text}' in an interpolated string`);
    return `${item}}`;
  }

  /** A method of the script (checked when the script is loaded). */
  protected override unknownFunction(name: string, pos: number): Node {
    const args = this.parseArgs();
    return this.mkArgs({ k: 'ucall', pos, name, args }, args);
  }

  protected override parseNew(pos: number): Node {
    return this.parseScriptNew(pos);
  }

  /** A type name as scripts write it: `int`, `System.String`, `List<int>`, `int[]`, `T?`. */
  protected parseTypeName(): string {
    if (this.tok.kind !== 'id') throw this.error('a type name is expected');
    let name = this.advance().text;
    while (this.isOp('.') && lexAt(this.src, this.tok.end).kind === 'id') {
      this.advance();
      name += `.${this.advance().text}`;
    }
    if (this.isOp('<')) name += `<${this.parseTypeArgs().join(', ')}>`;
    if (this.isOp('?') && this.nullableMark()) {
      this.advance();
      name += '?';
    }
    while (this.isOp('[') && lexAt(this.src, this.tok.end).text === ']') {
      this.advance();
      this.advance();
      name += '[]';
    }
    return name;
  }

  /** The `?` after a type is a nullable mark (`int?`), not a conditional (`x is int ? y : z`):
   *  it is followed by what ends a type, or by a declared name and what follows one. */
  private nullableMark(): boolean {
    const next = lexAt(this.src, this.tok.end);
    if (next.kind === 'op') return [')', ';', ',', ']', '>', '=', '{', '['].includes(next.text);
    if (next.kind !== 'id') return false;
    const after = lexAt(this.src, next.end);
    return (
      (after.kind === 'op' && [';', ',', ')', '='].includes(after.text)) || (after.kind === 'id' && after.text === 'in')
    );
  }

  /** `<A, B<C>>` (the opening `<` is the current token); nested no deeper than expressions. */
  protected parseTypeArgs(): string[] {
    this.expectOp('<');
    this.enter();
    try {
      const args: string[] = [];
      for (;;) {
        args.push(this.parseTypeName());
        if (this.isOp(',')) {
          this.advance();
          continue;
        }
        // `>>` closes two lists at once.
        if (this.isOp('>>')) {
          this.tok = { kind: 'op', pos: this.tok.pos + 1, end: this.tok.end, text: '>' };
          return args;
        }
        this.expectOp('>');
        return args;
      }
    } finally {
      this.leave();
    }
  }

  /** Script mode `new`: objects with arguments and an initializer, arrays with a length or
   *  items, `new[] { … }`. */
  private parseScriptNew(pos: number): Node {
    let type = '';
    let typeArgs: string[] = [];
    if (this.tok.kind === 'id') {
      type = this.advance().text;
      while (this.isOp('.')) {
        this.advance();
        if (this.tok.kind !== 'id') throw this.error('a type name is expected');
        type += `.${this.advance().text}`;
      }
      if (this.isOp('<')) typeArgs = this.parseTypeArgs();
    }
    let args: Node[] = [];
    let length: Node | null = null;
    let array = false;
    if (this.isOp('[')) {
      array = true;
      this.advance();
      if (!this.isOp(']')) {
        this.enter();
        length = this.parseExpression();
        this.leave();
      }
      this.expectOp(']');
    } else if (this.isOp('(')) {
      args = this.parseArgs();
    } else if (type !== '' && !this.isOp('{')) {
      throw this.error("'(' or '[' expected after the type name");
    }
    if (type === '' && !array) throw this.error('a type name is expected after new');
    let init: Node[] | null = null;
    if (this.isOp('{')) init = this.parseInitializer();
    if (array && length === null && init === null) throw this.error('an array needs a length or items');
    const kids = [...args, ...(length ? [length] : []), ...(init ?? [])];
    return this.mkArgs({ k: 'snew', pos, type, typeArgs, args, length, array, init }, kids);
  }

  /** `{ a, b }` or `{ { k, v }, … }` (a pair is a two-item `snew` with no type). */
  private parseInitializer(): Node[] {
    this.expectOp('{');
    const items: Node[] = [];
    while (!this.isOp('}')) {
      this.enter();
      if (this.isOp('{')) {
        const pos = this.tok.pos;
        const pair = this.parseInitializer();
        items.push(
          this.mkArgs(
            { k: 'snew', pos, type: '', typeArgs: [], args: [], length: null, array: true, init: pair },
            pair,
          ),
        );
      } else items.push(this.parseExpression());
      this.leave();
      if (items.length > 100_000) throw this.error('too many items');
      if (!this.isOp(',')) break;
      this.advance();
    }
    this.expectOp('}');
    return items;
  }
}

/** `this.` before what `parseIdentifier` read: a name becomes `this.name` (the field), a method
 *  of a name's value keeps its call; a method of the script (`this.F()`) stays as it is. */
function thisMember(n: Node): Node {
  if (n.k === 'chain') {
    const segs = ['this', ...n.segs];
    return { ...n, segs, names: segs.map((_s, i) => segs.slice(0, i + 1).join('.')), hint: segs.length };
  }
  if (n.k === 'mcall' && n.obj.k === 'chain') return { ...n, obj: thisMember(n.obj) };
  return n;
}
