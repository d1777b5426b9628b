// The statements of a report script's methods (C#): blocks, local declarations, if/else,
// switch, while, do, for, foreach, break/continue/return, throw, try/catch/finally, and
// expression statements (assignments, calls, ++/--). What a script may not do is refused here
// with a message (the method using it is left out, see parser.ts).

import type { Node } from '../expr/ast.js';
import { lexAt } from '../expr/lexer.js';
import type { CatchClause, LocalDeclarator, Stmt, SwitchSection } from './ast.js';
import { ScriptExpressionParser } from './expression-parser.js';

/** Statements a report script may not use, and why. */
const REFUSED_STATEMENTS: Readonly<Record<string, string>> = {
  goto: "'goto' is not supported",
  lock: "'lock' (threads) is not allowed in a report script",
  yield: "'yield' is not supported",
  unsafe: "'unsafe' code is not allowed in a report script",
  fixed: "'fixed' (pointers) is not allowed in a report script",
  checked: "'checked' blocks are not supported",
  unchecked: "'unchecked' blocks are not supported",
  using: "'using' statements are not supported",
};

export class StatementParser extends ScriptExpressionParser {
  /** How deep statements nest (bounded like expressions). */
  private nesting = 0;

  protected isWord(text: string): boolean {
    return this.tok.kind === 'id' && !this.tok.verbatim && this.tok.text === text;
  }

  protected expectWord(text: string): void {
    if (!this.isWord(text)) throw this.error(`'${text}' expected`);
    this.advance();
  }

  protected expectName(): string {
    if (this.tok.kind !== 'id') throw this.error('a name is expected');
    return this.advance().text;
  }

  /** `{ statements }` (the current token is `{`). */
  protected parseBlock(): Stmt {
    const pos = this.expectOp('{').pos;
    const body: Stmt[] = [];
    while (!this.isOp('}')) {
      if (this.tok.kind === 'eof') throw this.error("'}' expected at the end");
      body.push(this.parseStatement());
    }
    this.advance();
    return { k: 'block', pos, body };
  }

  protected parseStatement(): Stmt {
    if (++this.nesting > 200) throw this.error('statements are nested more than 200 levels deep');
    try {
      return this.statement();
    } finally {
      this.nesting--;
    }
  }

  private statement(): Stmt {
    const t = this.tok;
    const pos = t.pos;
    if (this.isOp('{')) return this.parseBlock();
    if (this.isOp(';')) {
      this.advance();
      return { k: 'empty', pos };
    }
    if (t.kind === 'id' && !t.verbatim) {
      const refused = Object.hasOwn(REFUSED_STATEMENTS, t.text) ? REFUSED_STATEMENTS[t.text] : undefined;
      if (refused && !(t.text === 'checked' || t.text === 'unchecked' ? !this.nextIs('{') : false))
        throw this.error(refused);
      switch (t.text) {
        case 'if':
          return this.parseIf();
        case 'while': {
          this.advance();
          const cond = this.parseCondition();
          return { k: 'while', pos, cond, body: this.parseStatement() };
        }
        case 'do': {
          this.advance();
          const body = this.parseStatement();
          this.expectWord('while');
          const cond = this.parseCondition();
          this.expectOp(';');
          return { k: 'do', pos, body, cond };
        }
        case 'for':
          return this.parseFor();
        case 'foreach':
          return this.parseForeach();
        case 'switch':
          return this.parseSwitch();
        case 'break':
        case 'continue':
          this.advance();
          this.expectOp(';');
          return { k: t.text, pos };
        case 'return':
        case 'throw': {
          this.advance();
          const x = this.isOp(';') ? null : this.parseAssignment();
          this.expectOp(';');
          return { k: t.text, pos, x };
        }
        case 'try':
          return this.parseTry();
      }
      const local = this.tryLocal();
      if (local) {
        this.expectOp(';');
        return local;
      }
    }
    const x = this.parseAssignment();
    this.expectOp(';');
    return { k: 'expr', pos, x };
  }

  private nextIs(op: string): boolean {
    const next = lexAt(this.src, this.tok.end);
    return next.kind === 'op' && next.text === op;
  }

  protected parseCondition(): Node {
    this.expectOp('(');
    const cond = this.parseAssignment();
    this.expectOp(')');
    return cond;
  }

  private parseIf(): Stmt {
    const pos = this.advance().pos;
    const cond = this.parseCondition();
    const then = this.parseStatement();
    let otherwise: Stmt | null = null;
    if (this.isWord('else')) {
      this.advance();
      otherwise = this.parseStatement();
    }
    return { k: 'if', pos, cond, then, else: otherwise };
  }

  /** `type name = init, name2;` when the statement starts so (else null, nothing read). */
  protected tryLocal(): Stmt | null {
    const save = this.tok;
    const pos = save.pos;
    let type: string;
    try {
      type = this.parseTypeName();
    } catch {
      this.tok = save;
      return null;
    }
    if (this.tok.kind !== 'id') {
      this.tok = save;
      return null;
    }
    const after = lexAt(this.src, this.tok.end);
    if (!(after.kind === 'op' && (after.text === '=' || after.text === ';' || after.text === ','))) {
      this.tok = save;
      return null;
    }
    const decls: LocalDeclarator[] = [];
    for (;;) {
      const name = this.expectName();
      let init: Node | null = null;
      if (this.isOp('=')) {
        this.advance();
        init = this.isOp('{') ? this.arrayInitializer() : this.parseAssignment();
      }
      decls.push({ name, init });
      if (!this.isOp(',')) break;
      this.advance();
    }
    return { k: 'local', pos, type, decls };
  }

  /** `int[] a = { 1, 2 }`: an array initializer without `new`. */
  protected arrayInitializer(): Node {
    const pos = this.tok.pos;
    const items: Node[] = [];
    this.expectOp('{');
    while (!this.isOp('}')) {
      items.push(this.isOp('{') ? this.arrayInitializer() : this.parseExpression());
      if (!this.isOp(',')) break;
      this.advance();
    }
    this.expectOp('}');
    return this.mkArgs(
      { k: 'snew', pos, type: '', typeArgs: [], args: [], length: null, array: true, init: items },
      items,
    );
  }

  private parseFor(): Stmt {
    const pos = this.advance().pos;
    this.expectOp('(');
    const init: Stmt[] = [];
    if (!this.isOp(';')) {
      const local = this.tryLocal();
      if (local) init.push(local);
      else {
        for (;;) {
          const x = this.parseAssignment();
          init.push({ k: 'expr', pos: x.pos, x });
          if (!this.isOp(',')) break;
          this.advance();
        }
      }
    }
    this.expectOp(';');
    const cond = this.isOp(';') ? null : this.parseAssignment();
    this.expectOp(';');
    const step: Node[] = [];
    while (!this.isOp(')')) {
      step.push(this.parseAssignment());
      if (!this.isOp(',')) break;
      this.advance();
    }
    this.expectOp(')');
    return { k: 'for', pos, init, cond, step, body: this.parseStatement() };
  }

  private parseForeach(): Stmt {
    const pos = this.advance().pos;
    this.expectOp('(');
    const type = this.parseTypeName();
    const name = this.expectName();
    this.expectWord('in');
    const of = this.parseAssignment();
    this.expectOp(')');
    return { k: 'foreach', pos, type, name, of, body: this.parseStatement() };
  }

  private parseSwitch(): Stmt {
    const pos = this.advance().pos;
    const x = this.parseCondition();
    this.expectOp('{');
    const sections: SwitchSection[] = [];
    while (!this.isOp('}')) {
      const labels: (Node | null)[] = [];
      while (this.isWord('case') || this.isWord('default')) {
        if (this.isWord('default')) {
          this.advance();
          labels.push(null);
        } else {
          this.advance();
          labels.push(this.parseExpression());
        }
        this.expectOp(':');
      }
      if (labels.length === 0) throw this.error("'case' or 'default' expected");
      const body: Stmt[] = [];
      while (!this.isWord('case') && !this.isWord('default') && !this.isOp('}')) {
        if (this.tok.kind === 'eof') throw this.error("'}' expected at the end");
        body.push(this.parseStatement());
      }
      sections.push({ labels, body });
    }
    this.advance();
    return { k: 'switch', pos, x, sections };
  }

  private parseTry(): Stmt {
    const pos = this.advance().pos;
    const body = this.parseBlock();
    const catches: CatchClause[] = [];
    while (this.isWord('catch')) {
      this.advance();
      let type: string | null = null;
      let name: string | null = null;
      if (this.isOp('(')) {
        this.advance();
        type = this.parseTypeName();
        if (this.tok.kind === 'id') name = this.advance().text;
        this.expectOp(')');
      }
      if (this.isWord('when')) throw this.error("'when' filters are not supported");
      catches.push({ type, name, body: this.parseBlock() });
    }
    let fin: Stmt | null = null;
    if (this.isWord('finally')) {
      this.advance();
      fin = this.parseBlock();
    }
    if (catches.length === 0 && fin === null) throw this.error("'catch' or 'finally' expected");
    return { k: 'try', pos, body, catches, fin };
  }
}
