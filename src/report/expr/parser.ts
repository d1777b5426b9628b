// Recursive-descent parser (precedence climbing for binary operators) for the C# expression
// subset. Names are bound here: standard functions and static members are checked against the
// function tables, so an unknown function is a compile-time error as it is in FastReport.

import type { Node } from './ast.js';
import { FUNCTIONS } from './functions.js';
import { lexAt, type Token } from './lexer.js';
import { BINARY_PREC, CAST_TYPES, KEYWORD_TYPES, UNSUPPORTED_KEYWORDS } from './parse-tables.js';
import { STATIC_TYPES, staticTypeOf } from './static-members.js';
import { TokenCursor } from './token-cursor.js';
import { canonicalType } from './type-names.js';
import type { Value } from './values.js';

/** Report.Xxx(…) methods (everything else after `Report.` is a name for the scope). */
const REPORT_METHODS = STATIC_TYPES.get('Report')!.methods;

/** Joins the first i+1 segments, for i = 0…n-1. */
function prefixNames(segs: readonly string[]): string[] {
  const out: string[] = [];
  let acc = '';
  for (const s of segs) {
    acc = acc === '' ? s : `${acc}.${s}`;
    out.push(acc);
  }
  return out;
}

export class Parser extends TokenCursor {
  /**
   * @param script Script mode (report scripts): assignments, `++`/`--`, the script's own
   *   methods, `new` of any type, `is`/`as`, `this.` — the nodes only a script evaluates.
   */
  constructor(
    src: string,
    maxDepth: number,
    protected readonly script = false,
  ) {
    super(src, maxDepth);
  }

  /** Parses the whole source as one expression. */
  parseAll(): Node {
    const n = this.parseExpression();
    if (this.tok.kind !== 'eof') {
      const t = this.tok.text;
      if (t === '=' || (t.length === 2 && t.endsWith('=') && !['==', '!=', '<=', '>='].includes(t)))
        throw this.error('assignment is not supported');
      if (t === '++' || t === '--') throw this.error(`'${t}' is not supported`);
      throw this.error(`unexpected '${t}'`);
    }
    return n;
  }

  protected parseExpression(): Node {
    this.enter();
    const pos = this.tok.pos;
    const c = this.parseCoalesce();
    let out = c;
    if (this.isOp('?')) {
      this.advance();
      const a = this.parseExpression();
      this.expectOp(':');
      const b = this.parseExpression();
      out = this.mk({ k: 'cond', pos, c, a, b }, c, a, b);
    }
    this.leave();
    return out;
  }

  private parseCoalesce(): Node {
    const a = this.parseBinary(1);
    // `??=` (scripts) is an assignment, not `??`.
    if (!this.isOp('??') || this.src[this.tok.end] === '=') return a;
    const pos = this.advance().pos;
    this.enter();
    const b = this.parseCoalesce();
    this.leave();
    return this.mk({ k: 'bin', pos, op: '??', a, b }, a, b);
  }

  private parseBinary(minPrec: number): Node {
    let left = this.parseUnary();
    for (;;) {
      if (this.tok.kind === 'id' && !this.tok.verbatim && (this.tok.text === 'is' || this.tok.text === 'as')) {
        const tested = this.typeTest(left, minPrec);
        if (tested === null) return left;
        left = tested;
        continue;
      }
      if (this.tok.kind !== 'op') return left;
      // `<<=` and `>>=` (scripts) are assignments.
      if ((this.tok.text === '<<' || this.tok.text === '>>') && this.src[this.tok.end] === '=') return left;
      const prec = BINARY_PREC[this.tok.text];
      if (prec === undefined || prec < minPrec) return left;
      const opTok = this.advance();
      const right = this.parseBinary(prec + 1);
      left = this.mk({ k: 'bin', pos: opTok.pos, op: opTok.text, a: left, b: right }, left, right);
    }
  }

  protected parseUnary(): Node {
    this.enter();
    try {
      const t = this.tok;
      if (t.kind === 'op' && (t.text === '-' || t.text === '+' || t.text === '!' || t.text === '~')) {
        this.advance();
        // -2147483648 and -9223372036854775808 are int.MinValue / long.MinValue literals.
        if (t.text === '-' && this.tok.kind === 'num' && this.tok.negOnly) {
          const lit = this.advance();
          const after = this.tok;
          if (!(after.kind === 'op' && (after.text === '.' || after.text === '[' || after.text === '?.'))) {
            const v: Value = lit.negOnly === 'int' ? -2147483648 : -9223372036854775808n;
            return this.parsePostfix(this.mk({ k: 'lit', pos: t.pos, v }));
          }
          this.tok = lit; // let the general path report it
        }
        const x = this.parseUnary();
        return this.mk({ k: 'unary', pos: t.pos, op: t.text as '-', x }, x);
      }
      if (t.kind === 'op' && (t.text === '++' || t.text === '--')) return this.prefixIncDec();
      if (this.isOp('(')) {
        const cast = this.tryCast();
        if (cast) return cast;
      }
      return this.parsePostfix(this.parsePrimary());
    } finally {
      this.leave();
    }
  }

  /** `(type)x` when the parenthesis holds a type name and what follows can start an operand. */
  private tryCast(): Node | null {
    const open = this.tok;
    const save = this.tok;
    this.advance();
    if (this.tok.kind !== 'id') {
      this.tok = save;
      return null;
    }
    const first = this.tok;
    const segs = [first.text];
    this.advance();
    while (this.isOp('.')) {
      const next = lexAt(this.src, this.tok.end);
      if (next.kind !== 'id') break;
      this.advance();
      segs.push(this.advance().text);
    }
    let nullable = false;
    if (this.isOp('?')) {
      nullable = true;
      this.advance();
    }
    if (!this.isOp(')')) {
      this.tok = save;
      return null;
    }
    const name = segs.join('.');
    const keyword = segs.length === 1 && KEYWORD_TYPES.has(name) && !first.verbatim;
    const type = canonicalType(name);
    if (
      type === undefined ||
      !CAST_TYPES.has(type) ||
      (segs.length > 1 && segs[0] !== 'System') ||
      (!keyword && KEYWORD_TYPES.has(segs[segs.length - 1]!) && segs.length > 1)
    ) {
      this.tok = save;
      return null;
    }
    this.advance(); // ')'
    const nt = this.tok;
    const startsOperand =
      nt.kind === 'id' ||
      nt.kind === 'num' ||
      nt.kind === 'str' ||
      nt.kind === 'char' ||
      (nt.kind === 'op' && (nt.text === '(' || nt.text === '[' || nt.text === '!' || nt.text === '~'));
    const keywordOperand = keyword && nt.kind === 'op' && (nt.text === '-' || nt.text === '+');
    if (!startsOperand && !keywordOperand) {
      this.tok = save;
      return null;
    }
    const x = this.parseUnary();
    return this.mk({ k: 'cast', pos: open.pos, type, nullable, x }, x);
  }

  protected parseArgs(): Node[] {
    this.expectOp('(');
    const args: Node[] = [];
    if (this.isOp(')')) {
      this.advance();
      return args;
    }
    for (;;) {
      if (this.tok.kind === 'id' && !this.tok.verbatim && (this.tok.text === 'ref' || this.tok.text === 'out'))
        throw this.error(`'${this.tok.text}' arguments are not supported`);
      args.push(this.parseExpression());
      if (args.length > 10_000) throw this.error('too many arguments');
      if (this.isOp(',')) {
        this.advance();
        continue;
      }
      this.expectOp(')');
      return args;
    }
  }

  private parsePrimary(): Node {
    const t = this.tok;
    switch (t.kind) {
      case 'num':
        if (t.negOnly === 'long') throw this.error('ulong values above 9223372036854775807 are not supported');
        this.advance();
        return this.mk({ k: 'lit', pos: t.pos, v: t.value! });
      case 'str':
        if (t.interpolation) return this.interpolated(t);
        this.advance();
        return this.mk({ k: 'lit', pos: t.pos, v: t.value! });
      case 'char':
        this.advance();
        return this.mk({ k: 'lit', pos: t.pos, v: t.value! });
      case 'eof':
        throw this.error('unexpected end of expression');
      case 'op':
        if (t.text === '(') {
          this.advance();
          const e = this.parseExpression();
          this.expectOp(')');
          return e;
        }
        if (t.text === '[') return this.parseDataRef();
        throw this.error(`unexpected '${t.text}'`);
      case 'id':
        return this.parseIdentifier();
    }
  }

  /** `[name]`: everything up to the next `]` is the name, spaces and symbols included. */
  private parseDataRef(): Node {
    const open = this.tok;
    const close = this.src.indexOf(']', open.end);
    if (close < 0) throw this.error("']' expected: the data reference is not closed");
    const name = this.src.slice(open.end, close);
    if (name.trim() === '') throw this.error('empty data reference []');
    if (name.includes('[')) throw this.error("'[' inside a data reference");
    this.tok = lexAt(this.src, close + 1);
    return this.mk({ k: 'ref', pos: open.pos, name });
  }

  protected parseIdentifier(): Node {
    const first = this.advance();
    const pos = first.pos;
    if (!first.verbatim) {
      switch (first.text) {
        case 'true':
          return this.mk({ k: 'lit', pos, v: true });
        case 'false':
          return this.mk({ k: 'lit', pos, v: false });
        case 'null':
          return this.mk({ k: 'lit', pos, v: null });
        case 'new':
          return this.parseNew(pos);
        case 'this':
          return this.parseThis(pos);
      }
      if (UNSUPPORTED_KEYWORDS.has(first.text)) throw this.error(`'${first.text}' is not supported`, pos);
    }
    // Greedy dotted chain a.b.c (stops at ?. [ ( and anything else).
    const segs = [first.text];
    while (this.isOp('.')) {
      const next = lexAt(this.src, this.tok.end);
      if (next.kind !== 'id') break;
      this.advance();
      segs.push(this.advance().text);
    }
    const isCall = this.isOp('(');
    if (!first.verbatim && KEYWORD_TYPES.has(first.text) && segs.length === 1)
      throw this.error(`'${first.text}' is a type, not a value`, pos);

    // Static type: Math.Round(…), DateTime.Now.Year, System.String.Format(…)
    const st = first.verbatim ? undefined : staticTypeOf(segs);
    if (st && !(st.type.name === 'Report' && !(segs.length === 2 && isCall && REPORT_METHODS.has(segs[1]!)))) {
      const rest = segs.slice(st.used);
      if (rest.length === 1 && isCall) {
        const fn = st.type.methods.get(rest[0]!);
        if (!fn) throw this.bindError(`'${segs.slice(0, st.used).join('.')}' has no method '${rest[0]}'`, pos);
        const args = this.parseArgs();
        this.checkArity(rest[0]!, fn, args.length, pos);
        return this.mkArgs({ k: 'scall', pos, type: st.type.name, method: rest[0]!, args }, args);
      }
      const prop = st.type.props.get(rest[0]!);
      if (!prop) throw this.bindError(`'${segs.slice(0, st.used).join('.')}' has no member '${rest[0]}'`, pos);
      const node = this.mk({ k: 'static', pos, type: st.type.name, member: rest[0]! });
      return this.finishMembers(node, rest.slice(1), isCall);
    }

    if (segs.length === 1 && isCall) {
      const fn = FUNCTIONS.get(first.text);
      if (!fn) return this.unknownFunction(first.text, pos);
      const args = this.parseArgs();
      this.checkArity(first.text, fn, args.length, pos);
      return this.mkArgs({ k: 'call', pos, fn: first.text, args }, args);
    }
    // A name for the scope; a called last segment is a method of its value.
    const nameSegs = isCall ? segs.slice(0, -1) : segs;
    const chain = this.mk({ k: 'chain', pos, segs: nameSegs, names: prefixNames(nameSegs), hint: nameSegs.length });
    return this.finishMembers(chain, isCall ? segs.slice(-1) : [], isCall);
  }

  /** Applies member segments to `node`; when `isCall` the last one is called with the args that
   *  follow. */
  private finishMembers(node: Node, members: readonly string[], isCall: boolean): Node {
    let n = node;
    for (let i = 0; i < members.length; i++) {
      const name = members[i]!;
      if (isCall && i === members.length - 1) {
        const args = this.parseArgs();
        n = this.mkArgs({ k: 'mcall', pos: n.pos, obj: n, method: name, args, nc: false }, args, n);
      } else {
        n = this.mk({ k: 'member', pos: n.pos, obj: n, name, nc: false }, n);
      }
    }
    return n;
  }

  private checkArity(name: string, fn: { min: number; max: number }, n: number, pos: number): void {
    if (n < fn.min || n > fn.max)
      throw this.bindError(`no overload of '${name}' takes ${n} argument${n === 1 ? '' : 's'}`, pos);
  }

  protected parseNew(pos: number): Node {
    if (this.tok.kind !== 'id') throw this.error("a type name is expected after 'new'");
    const segs = [this.advance().text];
    while (this.isOp('.')) {
      this.advance();
      if (this.tok.kind !== 'id') throw this.error('a type name is expected');
      segs.push(this.advance().text);
    }
    const name = segs.join('.');
    const type = canonicalType(name);
    if ((type !== 'System.DateTime' && type !== 'System.TimeSpan') || (segs.length > 1 && segs[0] !== 'System'))
      throw this.error(`'new ${name}' is not supported`, pos);
    const args = this.parseArgs();
    return this.mkArgs({ k: 'new', pos, type, args }, args);
  }

  // Hooks for what only report scripts write (src/report/script overrides them).

  /** `x is T` / `x as T` at precedence `minPrec`: null to end the operand there. */
  protected typeTest(_left: Node, _minPrec: number): Node | null {
    throw this.error(`'${this.tok.text}' is not supported`);
  }

  /** `++x` / `--x` (the operator is the current token). */
  protected prefixIncDec(): Node {
    throw this.error(`'${this.tok.text}' is not supported`);
  }

  /** `x++` / `x--` after `node` (the operator is the current token). */
  protected postfixIncDec(_node: Node): Node {
    throw this.error(`'${this.tok.text}' is not supported`);
  }

  /** An interpolated string `$"…{x}…"` (the current token). */
  protected interpolated(t: Token): Node {
    throw this.error('interpolated strings ($"…") are not supported', t.pos);
  }

  /** `this` (just read, at `pos`). */
  protected parseThis(pos: number): Node {
    throw this.error("'this' is not supported", pos);
  }

  /** The report script's methods a text may call (they are looked up when evaluated). */
  userFunctions: ((name: string) => boolean) | undefined;

  /** A call of a name that is no standard function (the arguments follow). */
  protected unknownFunction(name: string, pos: number): Node {
    if (this.userFunctions?.(name) === true) {
      const args = this.parseArgs();
      return this.mkArgs({ k: 'ucall', pos, name, args }, args);
    }
    throw this.bindError(`unknown function '${name}'`, pos);
  }

  protected parsePostfix(node: Node): Node {
    let n = node;
    for (;;) {
      if (this.isOp('.') || this.isOp('?.')) {
        const nc = this.tok.text === '?.';
        this.advance();
        if (this.tok.kind !== 'id') throw this.error('a member name is expected');
        const name = this.advance().text;
        if (this.isOp('(')) {
          const args = this.parseArgs();
          n = this.mkArgs({ k: 'mcall', pos: n.pos, obj: n, method: name, args, nc }, args, n);
        } else {
          n = this.mk({ k: 'member', pos: n.pos, obj: n, name, nc }, n);
        }
      } else if (this.isOp('[')) {
        this.advance();
        this.enter();
        const index = this.parseExpression();
        this.leave();
        this.expectOp(']');
        n = this.mk({ k: 'index', pos: n.pos, obj: n, index }, n, index);
      } else if (this.isOp('(')) {
        throw this.error('this expression cannot be called');
      } else if (this.isOp('++') || this.isOp('--')) {
        n = this.postfixIncDec(n);
      } else {
        return n;
      }
    }
  }
}
