// String and character literals of the lexer (lexer.ts): escapes, "…", @"…", '…', and the
// interpolated strings $"…{x,5:N2}…" / $@"…" / @$"…" whose holes report scripts parse.

import type { Hole, Token } from './token.js';
import { SyntaxErr } from './syntax-error.js';
import { Chr } from './values.js';

export type { Hole } from './token.js';

/** Reads one escape sequence at src[i] === '\\'. Returns the text and the next offset. */
export function lexEscape(src: string, i: number): [string, number] {
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

export function lexString(src: string, pos: number, from: number): Token {
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

export function lexVerbatim(src: string, pos: number): Token {
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

export function lexChar(src: string, pos: number): Token {
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

/** `$"`, `$@"` or `@$"` at src[i]. */
export function isInterpolated(src: string, i: number): boolean {
  const two = src.slice(i, i + 2);
  return two === '$"' || ((two === '$@' || two === '@$') && src[i + 2] === '"');
}

/** An interpolated string: its text parts and holes (the parser parses the holes). */
export function lexInterpolated(src: string, pos: number, nesting = 0): Token {
  if (nesting > 16) throw new SyntaxErr('interpolated strings are nested more than 16 deep', pos);
  const verbatim = src[pos] === '@' || src[pos + 1] === '@';
  let i = pos + (verbatim ? 3 : 2);
  const parts: (string | Hole)[] = [];
  let text = '';
  for (;;) {
    const c = src[i];
    if (c === undefined || (!verbatim && (c === '\n' || c === '\r')))
      throw new SyntaxErr('unterminated interpolated string', pos);
    if (c === '"' && verbatim && src[i + 1] === '"') {
      text += '"';
      i += 2;
    } else if (c === '"') {
      parts.push(text);
      return { kind: 'str', pos, end: i + 1, text: src.slice(pos, i + 1), value: '', interpolation: parts };
    } else if (c === '\\' && !verbatim) {
      const [t, next] = lexEscape(src, i);
      text += t;
      i = next;
    } else if ((c === '{' || c === '}') && src[i + 1] === c) {
      text += c;
      i += 2;
    } else if (c === '{') {
      parts.push(text);
      text = '';
      const end = holeEnd(src, i + 1, pos, nesting);
      parts.push({ start: i + 1, end });
      i = end + 1;
    } else if (c === '}') {
      throw new SyntaxErr("a '}' in an interpolated string is written '}}'", i);
    } else {
      text += c;
      i++;
    }
  }
}

/** The offset of the `}` closing a hole that starts at `from` (brackets and literals inside
 *  it are skipped whole). */
function holeEnd(src: string, from: number, pos: number, nesting: number): number {
  let depth = 0;
  for (let j = from; ; ) {
    const c = src[j];
    if (c === undefined) throw new SyntaxErr('unterminated interpolated string', pos);
    if (isInterpolated(src, j)) {
      j = lexInterpolated(src, j, nesting + 1).end;
      continue;
    }
    if (c === '"' || c === "'" || (c === '@' && src[j + 1] === '"')) {
      const end = skipLiteral(src, j);
      if (end === undefined) throw new SyntaxErr('unterminated interpolated string', pos);
      j = end;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === '}' && depth === 0) return j;
    else if (c === ')' || c === ']' || c === '}') depth--;
    j++;
  }
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
