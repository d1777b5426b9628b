// A token of the expression lexer (lexer.ts), apart so that the string-literal readers it uses
// can name it without importing the lexer.

import type { Value } from './values.js';

/** A hole of an interpolated string: src[start, end) is `expr[,alignment][:format]`. */
export interface Hole {
  readonly start: number;
  readonly end: number;
}

export type TokenKind = 'num' | 'str' | 'char' | 'id' | 'op' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Offset of the first character (after blanks and comments). */
  readonly pos: number;
  /** Offset just past the token. */
  readonly end: number;
  /** Operator text, identifier name (without a verbatim `@`), or literal source text. */
  readonly text: string;
  /** Literal value (num, str, char). */
  readonly value?: Value;
  /** An integer literal only valid negated: 2147483648 (-2147483648 is an int) or
   *  9223372036854775808 (-9223372036854775808 is a long). */
  readonly negOnly?: 'int' | 'long';
  /** `@name`: never a keyword. */
  readonly verbatim?: boolean;
  /** An interpolated string `$"a{x,5:N2}b"` (kind 'str'): its text (escapes read) and its holes,
   *  each the offsets of what is between its braces. Only report scripts accept one. */
  readonly interpolation?: readonly (string | Hole)[];
}
