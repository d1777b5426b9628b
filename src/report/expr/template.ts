// Text templates: "Total: [[A] * [B]] on [Date]" → literal parts and expression parts.
//
// FastReport's rules (Code/CodeUtils.cs, FindMatchingBrackets): find the next opening bracket;
// from there count opening and closing brackets, skipping string literals, until the count is
// back to zero. If the brackets never balance (or a string never closes), that opening bracket
// and everything after it stay literal text. Brackets are configurable (TextObject.Brackets,
// "[,]" by default: "open,close", each one or more characters). Inside an expression, data
// references are always written with [ ].

import { TemplateError } from '../errors.js';
import { Formatter as EN_US_FORMATTER } from '../format/index.js';
import { compileExpression } from './evaluate.js';
import { skipLiteral } from './lexer.js';
import type { CompiledExpression, CompileOptions, Scope, TemplatePart, TypedValue } from './types.js';

/** Splits TextObject.Brackets ("[,]", "<%,%>") into the opening and closing strings. */
export function parseBrackets(brackets: string = '[,]'): [string, string] {
  const i = brackets.indexOf(',');
  const open = i < 0 ? '' : brackets.slice(0, i);
  const close = i < 0 ? '' : brackets.slice(i + 1);
  if (open === '' || close === '' || close.includes(','))
    throw new TemplateError(`invalid Brackets "${brackets}": expected "open,close" such as "[,]"`);
  return [open, close];
}

/** Offset just past the bracket that closes the one at `start`, or -1. */
function findClose(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || (c === '@' && text[i + 1] === '"') || c === "'") {
      const end = skipLiteral(text, i);
      if (end !== undefined) {
        i = end;
        continue;
      }
      // An unterminated string: FastReport gives up on this expression.
      if (c !== "'") return -1;
    }
    if (text.startsWith(open, i)) {
      depth++;
      i += open.length;
    } else if (text.startsWith(close, i)) {
      depth--;
      i += close.length;
      if (depth === 0) return i;
    } else i++;
  }
  return -1;
}

/** Splits a text into literal and expression parts (expression sources without brackets). */
export function parseTemplate(text: string, brackets: string = '[,]'): TemplatePart[] {
  const [open, close] = parseBrackets(brackets);
  const parts: TemplatePart[] = [];
  let literalFrom = 0;
  for (;;) {
    const start = text.indexOf(open, literalFrom);
    if (start < 0) break;
    const end = findClose(text, start, open, close);
    if (end < 0) break;
    if (start > literalFrom) parts.push({ kind: 'text', text: text.slice(literalFrom, start) });
    parts.push({ kind: 'expr', source: text.slice(start + open.length, end - close.length), start, end });
    literalFrom = end;
  }
  if (literalFrom < text.length) parts.push({ kind: 'text', text: text.slice(literalFrom) });
  return parts;
}

/** A TemplatePart; an expression part also carries its compiled expression. */
export type CompiledPart =
  | Extract<TemplatePart, { kind: 'text' }>
  | (Extract<TemplatePart, { kind: 'expr' }> & { readonly expression: CompiledExpression });

export interface CompiledTemplate {
  readonly text: string;
  readonly parts: readonly CompiledPart[];
  /** The compiled expression parts, in order (what TextObject's <Formats> index). */
  readonly expressions: readonly CompiledExpression[];
  /** Literal parts as strings, expression parts as their typed values. */
  evaluate(scope: Scope, where?: string): (string | TypedValue)[];
  /** The text with every expression replaced by `toText(value, i)` (i = index among the
   *  expressions); by default its ToString() through the scope's formatter, null → "". */
  render(scope: Scope, toText?: (value: TypedValue, index: number) => string, where?: string): string;
}

export interface TemplateOptions extends CompileOptions {
  /** TextObject.Brackets (default "[,]"). */
  brackets?: string | undefined;
}

/**
 * Parses a text once and compiles its expressions (a bad expression throws its ExpressionError
 * here, naming `where`). Keep the result and evaluate it per row.
 */
export function compileTemplate(text: string, options: TemplateOptions = {}): CompiledTemplate {
  let raw: TemplatePart[];
  try {
    raw = parseTemplate(text, options.brackets);
  } catch (e) {
    if (e instanceof TemplateError && options.where !== undefined && e.where === undefined)
      throw new TemplateError(e.message, options.where);
    throw e;
  }
  const parts: CompiledPart[] = raw.map((p) =>
    p.kind === 'text' ? p : { ...p, expression: compileExpression(p.source, options) },
  );
  const expressions = parts.flatMap((p) => (p.kind === 'expr' ? [p.expression] : []));
  const evaluate = (scope: Scope, where?: string) =>
    parts.map((p) => (p.kind === 'text' ? p.text : p.expression.evaluateTyped(scope, where)));
  return Object.freeze({
    text,
    parts: Object.freeze(parts),
    expressions: Object.freeze(expressions),
    evaluate,
    render(scope: Scope, toText?: (value: TypedValue, index: number) => string, where?: string): string {
      const fmt = scope.formatter ?? EN_US_FORMATTER;
      let out = '';
      let i = 0;
      for (const p of parts) {
        if (p.kind === 'text') {
          out += p.text;
          continue;
        }
        const v = p.expression.evaluateTyped(scope, where);
        if (toText) out += toText(v, i);
        else if (v.value !== null && v.value !== undefined) {
          if (typeof v.value === 'string') out += v.value;
          else {
            try {
              out += fmt.format(v.value, '', v.type);
            } catch (e) {
              if (e instanceof TemplateError) throw e;
              throw new TemplateError(
                `cannot show the value of [${p.source}]: ${e instanceof Error ? e.message : String(e)}`,
                where ?? options.where,
              );
            }
          }
        }
        i++;
      }
      return out;
    },
  });
}
