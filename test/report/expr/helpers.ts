// Test helpers: a Map-backed scope and a compact rendering of typed results ("int 3",
// "decimal 3.50", "string abc", "DateTime 1996-07-04T00:00:00", "null").
import {
  compileExpression,
  Decimal,
  type Formatter,
  type Resolved,
  type Scope,
  TimeSpan,
  type TypedValue,
} from '../../../src/report/expr/index.js';

export type Data = Record<string, Resolved>;

/** A few typed columns in the spirit of nwind.xml. */
export const NWIND: Data = {
  'Order Details.UnitPrice': { value: 14, type: 'System.Decimal', decimalText: '14.0000' },
  'Order Details.Quantity': { value: 12, type: 'System.Int16' },
  'Order Details.Discount': { value: 0.15, type: 'System.Single' },
  'Products.ProductName': { value: 'Chai', type: 'System.String' },
  'Products.UnitsInStock': { value: 39, type: 'System.Int16' },
  'Employees.FirstName': { value: 'Nancy', type: 'System.String' },
  'Employees.LastName': { value: 'Davolio', type: 'System.String' },
  'Employees.Notes': { value: null, type: 'System.String' },
  'Employees.BirthDate': { value: new Date('1948-12-08T00:00:00Z'), type: 'System.DateTime' },
  'Orders.OrderID': { value: 10248, type: 'System.Int32' },
  'Orders.OrderDate': { value: new Date('1996-07-04T00:00:00Z'), type: 'System.DateTime' },
  'Orders.ShippedDate': { value: null, type: 'System.DateTime' },
  'Orders.Freight': { value: 32.38, type: 'System.Decimal', decimalText: '32.38' },
  'Orders.Customers.CompanyName': { value: 'Vins et alcools Chevalier', type: 'System.String' },
  'Sub-Total': { value: 440, type: 'System.Decimal', decimalText: '440.00' },
  'Row#': { value: 3, type: 'System.Int32' },
  Page: { value: 2, type: 'System.Int32' },
  TotalPages: { value: 5, type: 'System.Int32' },
  Date: { value: new Date('2024-03-15T10:30:00Z'), type: 'System.DateTime' },
  'Report.ReportInfo.Name': { value: 'Simple List', type: 'System.String' },
  'Report.ReportInfo.Description': { value: 'Demonstrates a simple list.', type: 'System.String' },
  // nulls of every kind
  NullInt: { value: null, type: 'System.Int32' },
  NullLong: { value: null, type: 'System.Int64' },
  NullDec: { value: null, type: 'System.Decimal' },
  NullDouble: { value: null, type: 'System.Double' },
  NullStr: { value: null, type: 'System.String' },
  NullBool: { value: null, type: 'System.Boolean' },
  NullDate: { value: null, type: 'System.DateTime' },
  Missing: { value: undefined },
  // plain values
  I: { value: 7, type: 'System.Int32' },
  L: { value: 7, type: 'System.Int64' },
  D: { value: 7, type: 'System.Double' },
  M: { value: '7.50', type: 'System.Decimal' },
  S: { value: 'Hello, World', type: 'System.String' },
  B: { value: true, type: 'System.Boolean' },
  Bytes: { value: new Uint8Array([1, 2, 3]), type: 'System.Byte[]' },
  Json: { value: { a: 1, b: [1, 2] }, type: 'FastReport.JsonBase' },
  Arr: { value: ['x', 'y', 'z'], type: 'FastReport.JsonBase' },
  Value: { value: -5, type: 'System.Int32' },
};

export const FIXED_NOW = new Date('2024-03-15T10:30:45Z');

export function scopeOf(
  data: Data = NWIND,
  opts: { convertNulls?: boolean; formatter?: Formatter; now?: Date } = {},
): Scope {
  const map = new Map(Object.entries(data));
  return {
    resolve: (name) => map.get(name),
    convertNulls: opts.convertNulls ?? true,
    formatter: opts.formatter,
    now: () => opts.now ?? FIXED_NOW,
  };
}

/** Records what the engine asks a formatter, and answers "<format|value|type>". */
export function stubFormatter(): Formatter & { calls: [unknown, string, string | undefined][] } {
  const calls: [unknown, string, string | undefined][] = [];
  return {
    calls,
    format(value, format, type) {
      calls.push([value, format, type]);
      const v = value instanceof Date ? value.toISOString().slice(0, 19) : String(value);
      return `<${format}|${v}|${type?.replace(/^System\./, '')}>`;
    },
  };
}

const SHORT: Record<string, string> = {
  'System.Int32': 'int',
  'System.Int64': 'long',
  'System.Double': 'double',
  'System.Single': 'float',
  'System.Decimal': 'decimal',
  'System.String': 'string',
  'System.Boolean': 'bool',
  'System.Char': 'char',
  'System.DateTime': 'DateTime',
  'System.TimeSpan': 'TimeSpan',
  'System.Object': 'object',
};

export function show(t: TypedValue): string {
  const v = t.value;
  if (v === null) return 'null';
  const type = SHORT[t.type] ?? t.type;
  let text: string;
  if (v instanceof Date)
    text =
      v.toISOString().slice(0, 19) +
      (v.getUTCMilliseconds() ? `.${String(v.getUTCMilliseconds()).padStart(3, '0')}` : '');
  else if (v instanceof Decimal || v instanceof TimeSpan) text = v.toString();
  else if (Array.isArray(v)) text = JSON.stringify(v);
  else if (typeof v === 'number' && Object.is(v, -0)) text = '-0';
  else text = String(v);
  return `${type} ${text}`;
}

/** Evaluates and shows: run('7 / 2') === 'int 3'. */
export function run(src: string, opts: { data?: Data; convertNulls?: boolean; formatter?: Formatter } = {}): string {
  return show(compileExpression(src).evaluateTyped(scopeOf(opts.data ?? NWIND, opts)));
}

/** The error message of a failing evaluation (or compile). Fails the test when nothing throws. */
export function errorOf(
  src: string,
  opts: { data?: Data; convertNulls?: boolean; formatter?: Formatter } = {},
): string {
  try {
    const r = compileExpression(src).evaluateTyped(scopeOf(opts.data ?? NWIND, opts));
    throw new Error(`expected an error, got ${show(r)}`);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('expected an error')) throw e;
    return (e as Error).message;
  }
}
