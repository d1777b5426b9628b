// Lexer for the C# expression subset. Pull-based: `lexAt(src, pos)` returns the token starting at
// or after `pos`, so the parser can back up (casts) and read data references `[…]` raw.

import { Decimal } from './decimal.js';
import { isInterpolated, lexChar, lexInterpolated, lexString, lexVerbatim } from './string-literals.js';
import { SyntaxErr } from './syntax-error.js';
import { Dbl, Flt, type Value } from './values.js';

export { BindErr, SyntaxErr } from './syntax-error.js';
export { type Hole, skipLiteral } from './string-literals.js';

import type { Token } from './token.js';

export type { Token, TokenKind } from './token.js';

const ID_START = /[\p{L}\p{Nl}_]/uy;
const ID_PART = /[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]/u;
const TWO_CHAR_OPS = new Set([
  '??',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '=>',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '->',
  '::',
]);
const ONE_CHAR_OPS = new Set([
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  '?',
  ':',
  '!',
  '~',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '&',
  '^',
  '|',
  '=',
  '{',
  '}',
  ';',
]);

const INT_MAX = 2147483647n;
const UINT_MAX = 4294967295n;
const LONG_MAX = 9223372036854775807n;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdStart(src: string, i: number): boolean {
  ID_START.lastIndex = i;
  return ID_START.test(src);
}

function isIdPart(c: string | undefined): boolean {
  return c !== undefined && (c === '_' || ID_PART.test(c));
}

/** Skips blanks and comments from `pos`. */
export function skipBlank(src: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = src[i];
    if (c === undefined) return i;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || /\s/.test(c)) {
      i++;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n' && src[i] !== '\r') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2);
      if (close < 0) throw new SyntaxErr('unterminated comment', i);
      i = close + 2;
    } else {
      return i;
    }
  }
}

export function lexAt(src: string, start: number): Token {
  const pos = skipBlank(src, start);
  const c = src[pos];
  if (c === undefined) return { kind: 'eof', pos, end: pos, text: '' };
  if (isDigit(c) || (c === '.' && isDigit(src[pos + 1]))) return lexNumber(src, pos);
  if (c === '"') return lexString(src, pos, pos + 1);
  if (c === '@' && src[pos + 1] === '"') return lexVerbatim(src, pos);
  if (isInterpolated(src, pos)) return lexInterpolated(src, pos);
  if (c === "'") return lexChar(src, pos);
  if (c === '@' && isIdStart(src, pos + 1)) {
    const t = lexIdent(src, pos + 1);
    return { ...t, pos, verbatim: true };
  }
  if (isIdStart(src, pos)) return lexIdent(src, pos);
  const two = src.slice(pos, pos + 2);
  if (two === '?.' && !isDigit(src[pos + 2])) return { kind: 'op', pos, end: pos + 2, text: '?.' };
  if (TWO_CHAR_OPS.has(two)) return { kind: 'op', pos, end: pos + 2, text: two };
  if (ONE_CHAR_OPS.has(c)) return { kind: 'op', pos, end: pos + 1, text: c };
  throw new SyntaxErr(`unexpected character '${c}'`, pos);
}

function lexIdent(src: string, pos: number): Token {
  // Surrogate pairs: a letter above U+FFFF spans two code units.
  let i = pos + (src.codePointAt(pos)! > 0xffff ? 2 : 1);
  while (i < src.length) {
    const ch = String.fromCodePoint(src.codePointAt(i)!);
    if (!isIdPart(ch)) break;
    i += ch.length;
  }
  return { kind: 'id', pos, end: i, text: src.slice(pos, i) };
}

function lexNumber(src: string, pos: number): Token {
  let i = pos;
  let text: string;
  let isReal = false;
  const digitsWhile = (test: (ch: string) => boolean) => {
    const from = i;
    while (i < src.length && (test(src[i]!) || (src[i] === '_' && i > from))) i++;
    if (src[i - 1] === '_') throw new SyntaxErr('a number cannot end with _', i - 1);
    return src.slice(from, i).replace(/_/g, '');
  };
  let radix = 10;
  if (src[i] === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X')) {
    i += 2;
    text = digitsWhile((ch) => /[0-9a-fA-F]/.test(ch));
    radix = 16;
    if (text === '') throw new SyntaxErr('invalid hexadecimal number', pos);
  } else if (
    src[i] === '0' &&
    (src[i + 1] === 'b' || src[i + 1] === 'B') &&
    (src[i + 2] === '0' || src[i + 2] === '1')
  ) {
    i += 2;
    text = digitsWhile((ch) => ch === '0' || ch === '1');
    radix = 2;
  } else {
    text = digitsWhile(isDigit);
    if (src[i] === '.' && isDigit(src[i + 1])) {
      i++;
      text += `.${digitsWhile(isDigit)}`;
      isReal = true;
    }
    if (
      (src[i] === 'e' || src[i] === 'E') &&
      (isDigit(src[i + 1]) || ((src[i + 1] === '+' || src[i + 1] === '-') && isDigit(src[i + 2])))
    ) {
      let exp = src[i + 1] === '+' || src[i + 1] === '-' ? src[i + 1]! : '';
      i += exp ? 2 : 1;
      exp += digitsWhile(isDigit);
      text += `e${exp}`;
      isReal = true;
    }
  }
  // Suffix
  let suffix = '';
  while (i < src.length && /[uUlLfFdDmM]/.test(src[i]!) && suffix.length < 2) suffix += src[i++]!.toLowerCase();
  if (isIdPart(src[i])) throw new SyntaxErr(`invalid number suffix '${src.slice(pos, i + 1)}'`, pos);
  const tok = (value: Value, extra: Partial<Token> = {}): Token => ({
    kind: 'num',
    pos,
    end: i,
    text: src.slice(pos, i),
    value,
    ...extra,
  });

  if (radix === 10 && (isReal || suffix === 'f' || suffix === 'd' || suffix === 'm')) {
    if (suffix === '' || suffix === 'd') return tok(new Dbl(Number(text)));
    if (suffix === 'f') return tok(new Flt(Number(text)));
    if (suffix === 'm') {
      try {
        const d = Decimal.parse(text);
        if (d) return tok(d);
      } catch {
        /* below */
      }
      throw new SyntaxErr('decimal literal is out of range', pos);
    }
    throw new SyntaxErr(`invalid real number suffix '${suffix}'`, pos);
  }
  if (suffix !== '' && !['u', 'l', 'ul', 'lu'].includes(suffix))
    throw new SyntaxErr(`invalid integer suffix '${suffix}'`, pos);
  if (text.length > 80) throw new SyntaxErr('integral constant is too large', pos);
  const n = radix === 10 ? BigInt(text) : BigInt((radix === 16 ? '0x' : '0b') + text);
  if (suffix === '') {
    if (n <= INT_MAX) return tok(Number(n));
    if (n === INT_MAX + 1n && radix === 10) return tok(n, { negOnly: 'int' });
    if (n <= LONG_MAX) return tok(n);
    if (n === LONG_MAX + 1n && radix === 10) return tok(n, { negOnly: 'long' });
    if (n <= 0xffffffffffffffffn) throw new SyntaxErr('ulong values above 9223372036854775807 are not supported', pos);
    throw new SyntaxErr('integral constant is too large', pos);
  }
  if (suffix === 'u' && n <= UINT_MAX) return tok(n);
  if (n <= LONG_MAX) return tok(n);
  if (n === LONG_MAX + 1n && radix === 10 && suffix === 'l') return tok(n, { negOnly: 'long' });
  throw new SyntaxErr(
    n <= 0xffffffffffffffffn
      ? 'ulong values above 9223372036854775807 are not supported'
      : 'integral constant is too large',
    pos,
  );
}
