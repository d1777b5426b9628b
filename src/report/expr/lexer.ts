// Lexer for the C# expression subset. Pull-based: `lexAt(src, pos)` returns the token starting at
// or after `pos`, so the parser can back up (casts) and read data references `[…]` raw.

import { Decimal } from './decimal.js';
import { Chr, Dbl, Flt, type Value } from './values.js';

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
}

/** A syntax error at an offset; the parser turns it into a TemplateError. */
export class SyntaxErr extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

/** A compile error that rules out the source being a data name: it names something that does
 *  not exist (an unknown function, a wrong number of arguments, an unknown static member) or
 *  breaks a limit. Always reported at compile time. */
export class BindErr extends SyntaxErr {}

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
  if (c === '$' && (src[pos + 1] === '"' || src[pos + 1] === '@'))
    throw new SyntaxErr('interpolated strings ($"…") are not supported', pos);
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

/** Reads one escape sequence at src[i] === '\\'. Returns the text and the next offset. */
function lexEscape(src: string, i: number): [string, number] {
  const e = src[i + 1];
  const simple: Record<string, string> = {
    "'": "'",
    '"': '"',
    '\\': '\\',
    '0': '\0',
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    e: '\x1b',
  };
  if (e !== undefined && e in simple) return [simple[e]!, i + 2];
  if (e === 'x') {
    const m = /^[0-9a-fA-F]{1,4}/.exec(src.slice(i + 2, i + 6));
    if (!m) throw new SyntaxErr('invalid \\x escape', i);
    return [String.fromCharCode(parseInt(m[0], 16)), i + 2 + m[0].length];
  }
  if (e === 'u') {
    const h = src.slice(i + 2, i + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new SyntaxErr('invalid \\u escape', i);
    return [String.fromCharCode(parseInt(h, 16)), i + 6];
  }
  if (e === 'U') {
    const h = src.slice(i + 2, i + 10);
    const cp = /^[0-9a-fA-F]{8}$/.test(h) ? parseInt(h, 16) : -1;
    if (cp < 0 || cp > 0x10ffff) throw new SyntaxErr('invalid \\U escape', i);
    return [String.fromCodePoint(cp), i + 10];
  }
  throw new SyntaxErr(`unrecognized escape sequence '\\${e ?? ''}'`, i);
}

function lexString(src: string, pos: number, from: number): Token {
  let i = from;
  let out = '';
  let chunk = i;
  for (;;) {
    const c = src[i];
    if (c === undefined || c === '\n' || c === '\r') throw new SyntaxErr('unterminated string', pos);
    if (c === '"') {
      out += src.slice(chunk, i);
      return { kind: 'str', pos, end: i + 1, text: src.slice(pos, i + 1), value: out };
    }
    if (c === '\\') {
      out += src.slice(chunk, i);
      const [t, next] = lexEscape(src, i);
      out += t;
      i = next;
      chunk = i;
    } else {
      i++;
    }
  }
}

function lexVerbatim(src: string, pos: number): Token {
  let i = pos + 2;
  let out = '';
  for (;;) {
    const close = src.indexOf('"', i);
    if (close < 0) throw new SyntaxErr('unterminated verbatim string', pos);
    out += src.slice(i, close);
    if (src[close + 1] === '"') {
      out += '"';
      i = close + 2;
    } else {
      return { kind: 'str', pos, end: close + 1, text: src.slice(pos, close + 1), value: out };
    }
  }
}

function lexChar(src: string, pos: number): Token {
  let i = pos + 1;
  let ch: string;
  const c = src[i];
  if (c === undefined || c === '\n' || c === '\r' || c === "'")
    throw new SyntaxErr(c === "'" ? 'empty character literal' : 'unterminated character literal', pos);
  if (c === '\\') [ch, i] = lexEscape(src, i);
  else {
    ch = c;
    i++;
  }
  if (ch.length !== 1) throw new SyntaxErr('a character literal holds one UTF-16 unit', pos);
  if (src[i] !== "'") throw new SyntaxErr('too many characters in character literal', pos);
  return { kind: 'char', pos, end: i + 1, text: src.slice(pos, i + 1), value: new Chr(ch.charCodeAt(0)) };
}

/**
 * Where a string or character literal that starts at src[i] ends (offset past it), for the
 * template scanner. Undefined when src[i] does not start a literal or the literal does not
 * close (a lone apostrophe in text is not a character literal).
 */
export function skipLiteral(src: string, i: number): number | undefined {
  const c = src[i];
  if (c === '"') {
    for (let j = i + 1; j < src.length; j++) {
      if (src[j] === '\\') j++;
      else if (src[j] === '"') return j + 1;
    }
    return undefined;
  }
  if (c === '@' && src[i + 1] === '"') {
    for (let j = i + 2; j < src.length; j++) {
      if (src[j] === '"') {
        if (src[j + 1] === '"') j++;
        else return j + 1;
      }
    }
    return undefined;
  }
  if (c === "'") {
    // 'x', '\n', '\'', '\x41', '\u0041' — nothing longer.
    const m = /^'(?:[^'\\\r\n]|\\(?:[^xuU\r\n]|x[0-9a-fA-F]{1,4}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}))'/.exec(
      src.slice(i, i + 12),
    );
    return m ? i + m[0].length : undefined;
  }
  return undefined;
}
