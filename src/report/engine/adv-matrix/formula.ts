// An AdvMatrix data cell's text (`[Sum([T.Revenue])]`, `[NextColumn(Sum([T.Revenue])) -
// FirstColumn()]`, `[PercentOfColumnTotal(Sum([T.Price]))]`, `[_Sum([T.Revenue])]`) is an
// expression over the cell's data rows, which the matrix evaluates itself. Each aggregate call is
// taken out of the source and replaced by a call of a placeholder function (`__advAgg0()`) that the
// matrix answers for the cell being printed: the aggregate (its argument is evaluated per data
// row), where it is taken (here; the column's, row's or grand total for a percentage; another
// column for the navigation functions), and the rest of the expression stays C#.

import { TemplateError } from '../../errors.js';

/** The built-in aggregates. First/Last: the value of the first/last data row. */
export const AGGREGATES = [
  'Sum',
  'Count',
  'Min',
  'Max',
  'Avg',
  'CountDistinct',
  'ValuesList',
  'First',
  'Last',
] as const;
export type AggregateName = (typeof AGGREGATES)[number];
const AGGREGATE_SET: ReadonlySet<string> = new Set<string>(AGGREGATES);

const PERCENTS: Readonly<Record<string, 'Column' | 'Row' | 'Grand'>> = {
  PercentOfColumnTotal: 'Column',
  PercentOfRowTotal: 'Row',
  PercentOfGrandTotal: 'Grand',
};
const NAVIGATION: Readonly<Record<string, 'First' | 'Next' | 'Last' | 'Previous'>> = {
  FirstColumn: 'First',
  NextColumn: 'Next',
  LastColumn: 'Last',
  PreviousColumn: 'Previous',
};

/** An aggregate of the cell: a built-in one, or a report script method called with the list of
 *  the argument's values. */
export interface AggregateSpec {
  fn: AggregateName | 'User';
  /** The script method (fn User). */
  user: string;
  /** The argument's source, evaluated per data row. */
  arg: string;
}

/** Where an aggregate is taken, relative to the cell printing. */
export type AggregatePlace =
  | { kind: 'Here' }
  | { kind: 'Percent'; of: 'Column' | 'Row' | 'Grand' }
  | { kind: 'Column'; to: 'First' | 'Next' | 'Last' | 'Previous' }
  | { kind: 'SpecificColumn'; key: string };

/** One placeholder call: `__advAgg{i}()` is aggregate `agg` taken at `place`. */
export interface AggregateRef {
  agg: number;
  place: AggregatePlace;
}

export interface CellFormula {
  /** The expression with its aggregate calls replaced by placeholder calls. */
  source: string;
  aggregates: AggregateSpec[];
  refs: AggregateRef[];
}

export const PLACEHOLDER = /^__advAgg(\d+)$/;
const MAX_NESTING = 32;

/** Rewrites one expression (the part between a cell text's brackets). `isUserFunction` says
 *  which names are the report script's methods. */
export function cellFormula(source: string, isUserFunction: (name: string) => boolean, where: string): CellFormula {
  const f: CellFormula = { source: '', aggregates: [], refs: [] };
  let lastAggregate = -1;
  const ref = (agg: number, place: AggregatePlace): string => {
    f.refs.push({ agg, place });
    return `__advAgg${f.refs.length - 1}()`;
  };
  const previous = (name: string): number => {
    if (lastAggregate < 0) throw new TemplateError(`${name}() without an argument needs an aggregate before it`, where);
    return lastAggregate;
  };
  const rewrite = (src: string, place: AggregatePlace, nesting: number): string => {
    if (nesting > MAX_NESTING) throw new TemplateError(`aggregates nested deeper than ${MAX_NESTING} levels`, where);
    let out = '';
    let i = 0;
    while (i < src.length) {
      const c = src[i] as string;
      if (c === '"' || c === "'" || (c === '@' && src[i + 1] === '"')) {
        const end = skipLiteral(src, i);
        out += src.slice(i, end);
        i = end;
        continue;
      }
      if (c === '[') {
        const end = skipBrackets(src, i);
        out += src.slice(i, end);
        i = end;
        continue;
      }
      if (!isIdentStart(c) || (i > 0 && isIdentPart(src[i - 1] as string))) {
        out += c;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < src.length && isIdentPart(src[j] as string)) j++;
      const name = src.slice(i, j);
      let k = j;
      while (k < src.length && /\s/.test(src[k] as string)) k++;
      const member = /\.\s*$/.test(src.slice(0, i));
      if (src[k] !== '(' || member) {
        out += name;
        i = j;
        continue;
      }
      const close = skipParens(src, k, where);
      const args = splitArgs(src.slice(k + 1, close - 1));
      i = close;
      if (AGGREGATE_SET.has(name) || isUserFunction(name)) {
        const user = !AGGREGATE_SET.has(name);
        f.aggregates.push({ fn: user ? 'User' : (name as AggregateName), user: user ? name : '', arg: args[0] ?? '' });
        lastAggregate = f.aggregates.length - 1;
        out += ref(lastAggregate, place);
      } else if (Object.hasOwn(PERCENTS, name)) {
        out += `(${rewrite(args[0] ?? '', { kind: 'Percent', of: PERCENTS[name] as 'Column' }, nesting + 1)})`;
      } else if (Object.hasOwn(NAVIGATION, name)) {
        const to = { kind: 'Column', to: NAVIGATION[name] as 'First' } as const;
        out += args.length === 0 ? ref(previous(name), to) : `(${rewrite(args[0] as string, to, nesting + 1)})`;
      } else if (name === 'SpecificColumn') {
        const key = { kind: 'SpecificColumn', key: (args[0] ?? '').trim() } as const;
        out += args.length < 2 ? ref(previous(name), key) : `(${rewrite(args[1] as string, key, nesting + 1)})`;
      } else out += `${name}(${args.map((a) => rewrite(a, place, nesting + 1)).join(',')})`;
    }
    return out;
  };
  f.source = rewrite(source, { kind: 'Here' }, 0);
  return f;
}

const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);

/** The end of a string or char literal starting at i (unterminated: the end of the source). */
function skipLiteral(src: string, i: number): number {
  if (src[i] === '@') {
    let j = i + 2;
    while (j < src.length) {
      if (src[j] === '"') {
        if (src[j + 1] === '"') j += 2;
        else return j + 1;
      } else j++;
    }
    return j;
  }
  const quote = src[i];
  let j = i + 1;
  while (j < src.length && src[j] !== quote) j += src[j] === '\\' ? 2 : 1;
  return Math.min(src.length, j + 1);
}

/** The end of a data reference `[…]` (nested brackets counted). */
function skipBrackets(src: string, i: number): number {
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    if (src[j] === '[') depth++;
    else if (src[j] === ']' && --depth === 0) return j + 1;
  }
  return src.length;
}

/** The end (after the `)`) of the parenthesised arguments starting at i. */
function skipParens(src: string, i: number, where: string): number {
  let depth = 0;
  let j = i;
  while (j < src.length) {
    const c = src[j] as string;
    if (c === '"' || c === "'" || (c === '@' && src[j + 1] === '"')) {
      j = skipLiteral(src, j);
      continue;
    }
    if (c === '[') {
      j = skipBrackets(src, j);
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
    j++;
  }
  throw new TemplateError(`')' expected in ${JSON.stringify(src.slice(0, 120))}`, where);
}

/** The arguments of a call (top-level commas); none for `()`. */
function splitArgs(inner: string): string[] {
  if (inner.trim() === '') return [];
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  let j = 0;
  while (j < inner.length) {
    const c = inner[j] as string;
    if (c === '"' || c === "'" || (c === '@' && inner[j + 1] === '"')) {
      j = skipLiteral(inner, j);
      continue;
    }
    if (c === '[') {
      j = skipBrackets(inner, j);
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(from, j));
      from = j + 1;
    }
    j++;
  }
  out.push(inner.slice(from));
  return out;
}
