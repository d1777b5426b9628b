// The token cursor under the parser: reading tokens, syntax and binding errors, the recursion
// and tree-depth limits, and building nodes with their depth.

import type { Node } from './ast.js';
import { BindErr, lexAt, SyntaxErr, type Token } from './lexer.js';

/** A node without its depth (the parser computes it). */
export type NodeInit = Node extends infer N ? (N extends Node ? Omit<N, 'd'> : never) : never;

export class TokenCursor {
  protected tok: Token;
  private level = 0;

  constructor(
    protected readonly src: string,
    protected readonly maxDepth: number,
  ) {
    this.tok = lexAt(src, 0);
  }

  protected error(message: string, pos = this.tok.pos): SyntaxErr {
    return new SyntaxErr(message, pos);
  }

  protected bindError(message: string, pos: number): BindErr {
    return new BindErr(message, pos);
  }

  protected advance(): Token {
    const t = this.tok;
    this.tok = lexAt(this.src, t.end);
    return t;
  }

  protected isOp(text: string): boolean {
    return this.tok.kind === 'op' && this.tok.text === text;
  }

  protected expectOp(text: string): Token {
    if (!this.isOp(text))
      throw this.error(
        this.tok.kind === 'eof' ? `'${text}' expected at the end` : `'${text}' expected, found '${this.tok.text}'`,
      );
    return this.advance();
  }

  /** Bounds the parser's own recursion (the tree depth is checked separately in mk): every
   *  nesting goes through parseExpression or parseUnary, at most two levels per tree level. */
  protected enter(): void {
    if (++this.level > this.maxDepth * 2)
      throw this.bindError(`expression is nested more than ${this.maxDepth} levels deep`, this.tok.pos);
  }

  protected leave(): void {
    this.level--;
  }

  /** Builds a node, checking the depth limit. */
  protected mk(n: NodeInit, ...children: (Node | null | undefined)[]): Node {
    let d = 0;
    for (const c of children) if (c && c.d > d) d = c.d;
    if (d + 1 > this.maxDepth)
      throw this.bindError(`expression is nested more than ${this.maxDepth} levels deep`, n.pos);
    return { ...n, d: d + 1 } as Node;
  }

  protected mkArgs(n: NodeInit, args: readonly Node[], ...more: Node[]): Node {
    return this.mk(n, ...args, ...more);
  }
}
