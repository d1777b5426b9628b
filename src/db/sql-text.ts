// Reading SQL written by administrators (cancel hooks, SRS commands): splitting a script into
// statements and binding named parameters. Both walk the text with the same lexer so that
// `;`, `:x` or `@x` inside string literals, quoted identifiers, comments and PostgreSQL
// dollar-quoted bodies are left alone. Values are always bound as parameters, never spliced.
import { sql, type RawBuilder } from 'kysely';

type Piece = { kind: 'code'; text: string } | { kind: 'opaque'; text: string };

/** Splits text into code and opaque runs (literals, identifiers, comments) that must not be touched. */
function lex(text: string): Piece[] {
  const pieces: Piece[] = [];
  let code = '';
  let i = 0;
  const flush = () => {
    if (code) pieces.push({ kind: 'code', text: code });
    code = '';
  };
  const opaque = (end: number) => {
    flush();
    pieces.push({ kind: 'opaque', text: text.slice(i, end) });
    i = end;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === close) {
          // A doubled quote is an escaped quote inside the literal.
          if (close !== ']' && text[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      opaque(Math.min(j + 1, text.length));
    } else if (c === '-' && next === '-') {
      const nl = text.indexOf('\n', i);
      opaque(nl < 0 ? text.length : nl);
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      opaque(end < 0 ? text.length : end + 2);
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i));
      if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        opaque(end < 0 ? text.length : end + tag[0].length);
      } else {
        code += c;
        i++;
      }
    } else {
      code += c;
      i++;
    }
  }
  flush();
  return pieces;
}

/** Statements of a script, without empty ones (a trailing `;` or comment-only runs). */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let current = '';
  let hasCode = false;
  for (const p of lex(script)) {
    if (p.kind === 'opaque') {
      current += p.text;
      if (!p.text.startsWith('--') && !p.text.startsWith('/*')) hasCode = true;
      continue;
    }
    const parts = p.text.split(';');
    parts.forEach((part, idx) => {
      if (idx > 0) {
        if (hasCode) statements.push(current.trim());
        current = '';
        hasCode = false;
      }
      current += part;
      if (part.trim() !== '') hasCode = true;
    });
  }
  if (hasCode && current.trim() !== '') statements.push(current.trim());
  return statements;
}

export interface BindOptions {
  /** Parameter markers to recognise, e.g. [':'] or ['@', ':']. */
  prefixes: readonly string[];
  /**
   * What replaces a marker (default: the value as a bound parameter). Lets a caller wrap the
   * bound parameter, e.g. in a CAST for a typed SRS param; the value must stay bound.
   */
  placeholder?: (name: string, value: unknown) => RawBuilder<unknown>;
}

export interface BoundStatement {
  query: RawBuilder<unknown>;
  /** Names referenced by the statement, in order of first use. */
  used: string[];
  /** Referenced names that had no value (left for the caller to report). */
  unknown: string[];
}

/**
 * Replaces `:name` / `@name` markers (of the names in `values`) by bound parameters.
 * `::type` casts and `@@variables` are not markers.
 */
export function bindNamedParameters(
  statement: string,
  values: Readonly<Record<string, unknown>>,
  opts: BindOptions,
): BoundStatement {
  const fragments: RawBuilder<unknown>[] = [];
  const used: string[] = [];
  const unknown: string[] = [];
  const escaped = opts.prefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('');
  const marker = new RegExp(`(^|[^${escaped}A-Za-z0-9_])([${escaped}])([A-Za-z_][A-Za-z0-9_]*)`, 'g');
  for (const piece of lex(statement)) {
    if (piece.kind === 'opaque') {
      fragments.push(sql.raw(piece.text));
      continue;
    }
    let last = 0;
    for (const m of piece.text.matchAll(marker)) {
      const name = m[3]!;
      const start = m.index! + m[1]!.length;
      const key = Object.keys(values).find((k) => k.toLowerCase() === name.toLowerCase());
      if (key === undefined) {
        if (!unknown.includes(name)) unknown.push(name);
        continue;
      }
      fragments.push(sql.raw(piece.text.slice(last, start)));
      fragments.push(opts.placeholder ? opts.placeholder(key, values[key]) : sql.val(values[key]));
      if (!used.includes(key)) used.push(key);
      last = start + 1 + name.length;
    }
    fragments.push(sql.raw(piece.text.slice(last)));
  }
  return { query: sql.join(fragments, sql.raw('')), used, unknown };
}
