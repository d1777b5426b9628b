// The public contract of the expression engine: what a caller hands in (Scope, Formatter,
// limits) and what it gets back (CompiledExpression, TemplatePart).

import type { ResolvedInput } from './scope-values.js';

/**
 * A value the scope hands in for a name, with its declared .NET type. The shape is the data
 * layer's `ColumnValue`, so a column value can be returned as it is.
 *
 * - `value`: null/undefined (null, DBNull, a missing JSON property), string, number, bigint,
 *   boolean, Date, Uint8Array, `Decimal`/`TimeSpan` (decimal.ts, time-span.ts), a JSON array or
 *   object.
 * - `type`: 'System.Int32', 'System.Decimal', 'System.String', 'System.DateTime',
 *   'System.Boolean', 'System.Double', 'System.Int64', 'System.Byte[]'… (also 'Int32', 'int',
 *   'int?'). It decides the .NET kind: 5 typed System.Double divides like 5.0, typed System.Int32
 *   like 5; and what ConvertNulls turns a null into. Without a type the value is taken at face
 *   value (integral numbers in the Int32 range are Int32, other numbers Double).
 * - `decimalText`: for System.Decimal, the exact text ("12.50"): used instead of `value`, so
 *   money keeps every digit and its scale.
 * - `offsetMinutes`: for System.DateTime, the UTC offset the source wrote; the expression sees
 *   the wall clock as written (instant + offset). Null/absent: the Date's UTC fields already
 *   are the wall clock.
 */
export type Resolved = ResolvedInput;

/**
 * Formats one value with a .NET format string. The implementation is `src/report/format/`'s
 * `createFormatter(culture)`; a scope without one gets its en-US `Formatter`.
 *
 * - `value` is a PUBLIC value (values.ts): number, bigint, Decimal, Date (UTC fields = wall
 *   clock), TimeSpan, boolean, string, Uint8Array, array, JSON object, or null.
 * - `format` is what follows the colon in `{0:N2}` or the argument of `.ToString("N2")`;
 *   `""` means plain `ToString()` (en-US: 1.5 → "1.5", true → "True",
 *   a DateTime → "7/4/1996 12:00:00 AM", a Decimal keeps its scale "12.50").
 * - `type` is the value's .NET type name when the engine knows it ('System.Int32',
 *   'System.Double', 'System.Decimal'…): `3` typed System.Double formats as a double
 *   (e.g. "D" is invalid for it, "R"/"" use double rules).
 * Throw (any Error) for an invalid format string; the engine turns it into a TemplateError.
 */
export interface Formatter {
  format(value: unknown, format: string, type?: string): string;
}

/**
 * Everything an expression can see. The evaluator reaches nothing else: no JS globals, no
 * properties of JS objects; members of values come from fixed allow-lists per .NET type.
 *
 * NAME LOOKUP — `resolve(name)` is called with:
 *
 * 1. The raw text between the brackets of a data reference `[…]` inside an expression, exactly
 *    as written (spaces, dots, `#`, `-` included): `[Order Details.UnitPrice]` →
 *    "Order Details.UnitPrice", `[Row#]` → "Row#", `[Sub-Total]` → "Sub-Total",
 *    `[Report.ReportInfo.Name]` → "Report.ReportInfo.Name", `[Parameter1.Child]` →
 *    "Parameter1.Child". If that gives undefined and the text has surrounding blanks, the
 *    trimmed text is tried. Still undefined → TemplateError "unknown name".
 *
 * 2. A whole expression that is just a name, the way FastReport's Report.Calc works: the
 *    source (without one pair of surrounding brackets if it has them, e.g. a Condition
 *    "[Orders.CustomerID]", or a text part "[Page]" whose source is "Page") is first tried as a
 *    name; only when the scope does not know it is it evaluated as C#. So "Sub-Total",
 *    "Order Details.UnitPrice" or "Row#" work as whole expressions even though they are not
 *    valid C#. Sources holding brackets or quotes are never tried as names; any other source
 *    may be (e.g. "2 + 2"), so resolve must answer undefined for arbitrary text.
 *
 * 3. Bare identifier chains that are not C# types or functions the engine knows (Math,
 *    Convert, String, DateTime, TimeSpan, DBNull, Int32…, the standard functions IIf, Round…):
 *    `Report.ReportInfo.Name`, `Value`, `Page`, `Total1`, `a.b.c`. The longest prefix the scope
 *    knows wins: for `a.b.c` it tries "a.b.c", then "a.b", then "a"; the remaining segments
 *    are members of the value (`Report.ReportInfo.Name.Length` → "Report.ReportInfo.Name",
 *    then `.Length`). A segment followed by `(` is a method call and never part of the name
 *    (`x.y.Trim()` resolves "x.y"). `Value` (the printed object's value in Highlight
 *    conditions) is an ordinary name the engine provides.
 *
 * 4. `Report.GetColumnValue("n")`, `Report.GetColumnValueNullable("n")`,
 *    `Report.GetParameterValue("n")`, `Report.GetVariableValue("n")`,
 *    `Report.GetTotalValue("n")`, and the standard function `IsNull("n")` call resolve("n")
 *    with the string argument.
 *
 * Return undefined for names the scope does not know (never throw for that). A known name
 * whose value is null returns `{ value: null, type }`. Lookups must be side-effect free: the
 * evaluator may call resolve several times per evaluation (prefix search).
 */
export interface Scope {
  resolve(name: string): Resolved | undefined;
  /** Calls a method of the report script (names CompileOptions.isFunction accepted), with the
   *  arguments as internal values. */
  callScript?(name: string, args: readonly unknown[]): Resolved;
  /**
   * Report.ConvertNulls (FastReport's default: true). The product's rule (docs/reports.md, Templates):
   * comparisons with `null` / `DBNull.Value` (and `??`, IsNull) see the raw value — a null
   * column is `== null` whatever this flag says; with the flag on, a null data value acts as its
   * column type's default (0, "", false, DateTime.MinValue…) in arithmetic, method calls,
   * function arguments and in the returned (displayed) value. With it off, arithmetic on null
   * gives null (C#'s lifted operators), string concatenation treats null as "".
   */
  readonly convertNulls: boolean;
  /** Formats values for ToString(format), String.Format, Format*, string concatenation and
   *  default text. Omitted: format/'s en-US `Formatter`. */
  readonly formatter?: Formatter | undefined;
  /** The wall clock for DateTime.Now / DateTime.Today (read once per evaluation). Omitted: the
   *  machine's local time. Give a fixed value for reproducible output. */
  now?(): Date;
}

/** Resource limits. Every limit breach is a TemplateError. */
export interface ExpressionLimits {
  /** Longest expression source accepted, in UTF-16 units (default 65536). */
  maxLength: number;
  /** Deepest syntax tree / nesting accepted (default 256). */
  maxDepth: number;
  /** Longest string one operation may produce (default 16 MiB). */
  maxStringLength: number;
  /** Evaluation steps per evaluation: nodes evaluated plus 1 per 1024 characters produced
   *  (default 2,000,000). */
  maxSteps: number;
}

export const DEFAULT_LIMITS: Readonly<ExpressionLimits> = Object.freeze({
  maxLength: 65_536,
  maxDepth: 256,
  maxStringLength: 16 * 1024 * 1024,
  maxSteps: 2_000_000,
});

export interface CompileOptions {
  /** Where the expression lives, for error messages: "Text12.Text", "Data1.Filter". */
  where?: string | undefined;
  limits?: Partial<ExpressionLimits> | undefined;
  /**
   * The report dictionary, as FastReport has it when it compiles: true when `name` is a data
   * column, parameter, total or system variable. When given, a whole source that is such a name
   * is that name (even "Qty/Box (kg)", which would otherwise parse as C#), and every other
   * source is C# only (its errors are compile errors). When omitted, every whole source without
   * brackets or quotes is looked up in the scope first at each evaluation (see Scope).
   */
  isName?: ((name: string) => boolean) | undefined;
  /** The report script's methods a text may call (`[GroupRank()]`); evaluated by
   *  Scope.callScript. */
  isFunction?: ((name: string) => boolean) | undefined;
}

/** A result with its .NET type name ('System.Int32', 'System.Decimal', 'System.String'…;
 *  'System.Object' for an untyped null). */
export interface TypedValue {
  value: unknown;
  type: string;
}

export interface CompiledExpression {
  /** The source as given. */
  readonly source: string;
  /** The syntax tree (read-only; for tools and debugging). */
  readonly ast: unknown;
  /** The names the expression refers to: bracket references and bare chains (full text),
   *  string-literal arguments of IsNull/Report.Get*Value, and the whole source when it can
   *  only be a name. In source order, without duplicates. (At evaluation, a whole source that
   *  is valid C# may also be passed to resolve first: see Scope.) */
  readonly references: readonly string[];
  /** Evaluates against a scope: a PUBLIC value (values.ts), ConvertNulls applied. */
  evaluate(scope: Scope, where?: string): unknown;
  /** Same, with the .NET type of the result. */
  evaluateTyped(scope: Scope, where?: string): TypedValue;
}

export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'expr';
      /** The text between the brackets. */
      readonly source: string;
      /** Offsets in the template text of the opening bracket and just past the closing one. */
      readonly start: number;
      readonly end: number;
    };
