// Properties of the formatters, checked with fast-check:
//   - any format string either formats or fails with a FormatError (never another exception);
//   - doubles: "F<n>" equals an exact-arithmetic oracle (ties to even), "R" and "G17" round-trip;
//   - decimals: "F<n>", "N<n>" and the custom "0.00…" equal a half-away-from-zero BigInt oracle;
//   - dates: an ISO-like custom format equals Date.prototype.toISOString.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DE_DE,
  EN_US,
  FormatError,
  INVARIANT,
  dateTimeOffset,
  formatComposite,
  formatDate,
  formatNumber,
} from '../../../src/report/format/index.js';

class Dec {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const RUNS = { numRuns: 400 };

/** Characters that mean something in numeric, date or composite formats, plus ordinary ones. */
const FORMAT_CHARS = [
  ...'0#.,;%\u2030Ee+-\\\'"{}:/',
  ...'CDEFGNPRXBcdefgnprxb',
  ...'dfFghHKmMstyz',
  ...'0123456789',
  ' ',
  'a',
  'Q',
  '\u00e9',
  '\0',
  '\u{1F600}',
];
const formatString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...FORMAT_CHARS), maxLength: 24 }),
  fc.string({ maxLength: 12 }),
  fc.tuple(fc.constantFrom(...'CDEFGNPRXBQZcdefgnprxb'), fc.nat({ max: 120 })).map(([c, n]) => `${c}${n}`),
);

const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,20}$/), fc.stringMatching(/^[0-9]{0,10}$/))
  .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === '' ? '' : '.' + f}`);

const numericValue = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  decimalText.map((t) => new Dec(t)),
  fc.constantFrom(
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
);

const dateValue = fc.oneof(
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
  fc
    .tuple(
      fc.date({ min: new Date('0002-01-01T00:00:00Z'), max: new Date('9998-12-31T00:00:00Z'), noInvalidDate: true }),
      fc.integer({ min: -14 * 60, max: 14 * 60 }),
    )
    .map(([d, offset]) => dateTimeOffset(d, offset)),
);

function formatsOrFormatError(run: () => string): void {
  try {
    expect(typeof run()).toBe('string');
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    expect((e as Error).message.length).toBeGreaterThan(0);
  }
}

describe('random format strings never throw anything but a FormatError', () => {
  it('numbers', () => {
    fc.assert(
      fc.property(numericValue, formatString, fc.constantFrom(EN_US, DE_DE, INVARIANT), (v, f, culture) => {
        formatsOrFormatError(() => formatNumber(v, f, culture));
      }),
      { numRuns: 3000 },
    );
  });

  it('dates', () => {
    fc.assert(
      fc.property(dateValue, formatString, fc.constantFrom(EN_US, DE_DE), (d, f, culture) => {
        formatsOrFormatError(() => formatDate(d, f, culture));
      }),
      { numRuns: 3000 },
    );
  });

  it('composite formats', () => {
    fc.assert(
      fc.property(
        formatString,
        fc.array(fc.oneof(numericValue, dateValue, fc.string(), fc.constant(null)), { maxLength: 3 }),
        (f, args) => {
          formatsOrFormatError(() => formatComposite(f, args));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('custom numeric formats (anything that is not letter+digits) never throw', () => {
    const custom = fc
      .string({ unit: fc.constantFrom(...FORMAT_CHARS), maxLength: 24 })
      .filter((f) => !/^[A-Za-z][0-9]*(\0.*)?$/.test(f) && f !== '');
    fc.assert(
      fc.property(numericValue, custom, (v, f) => {
        expect(typeof formatNumber(v, f)).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });
});

/** m × 2^e with m odd. */
function oddMantissa(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = biased === 0 ? bits & 0xfffffffffffffn : (bits & 0xfffffffffffffn) | (1n << 52n);
  let e = biased === 0 ? -1074 : biased - 1075;
  while (m !== 0n && (m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return { m, e };
}

describe('doubles', () => {
  it('"F<n>" is the correctly rounded value: JS toFixed agrees except on exact ties', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), fc.nat({ max: 15 }), (x, n) => {
        fc.pre(!Object.is(x, -0));
        // x·10^n ends in exactly .5 iff x = odd × 2^-(n+1)
        fc.pre(oddMantissa(x).e !== -(n + 1));
        expect(formatNumber(x, `F${n}`, INVARIANT)).toBe(x.toFixed(n));
      }),
      RUNS,
    );
  });

  it('"F<n>" rounds exact ties to even', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.nat({ max: 10 }), (k, n) => {
        const q = BigInt(k) * 2n + 1n; // odd
        const x = Number(q) / 2 ** (n + 1); // exact: q < 2^53
        const twice = q * 5n ** BigInt(n); // = 2·x·10^n, odd
        const abs = twice < 0n ? -twice : twice;
        let units = (abs - 1n) / 2n; // floor(|x|·10^n)
        if (units % 2n === 1n) units += 1n;
        const digits = units.toString().padStart(n + 1, '0');
        const text = n === 0 ? digits : `${digits.slice(0, -n)}.${digits.slice(-n)}`;
        expect(formatNumber(x, `F${n}`, INVARIANT)).toBe((x < 0 ? '-' : '') + text);
      }),
      RUNS,
    );
  });

  it('"R" and "G17" round-trip every finite double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Object.is(Number(formatNumber(x, 'R', INVARIANT)), x)).toBe(true);
        expect(Object.is(Number(formatNumber(x, 'G17', INVARIANT)), x)).toBe(true);
        expect(Number(formatNumber(x, 'E16', INVARIANT))).toBe(x);
      }),
      RUNS,
    );
  });
});

/** |value| rounded half away from zero to n decimals, as a fixed string with sign. */
function decimalOracle(text: string, n: number): string {
  const negative = text.startsWith('-');
  const [intPart, fracPart = ''] = text.replace('-', '').split('.') as [string, string?];
  const scaled = BigInt(intPart + fracPart.padEnd(n + 1, '0').slice(0, n + 1));
  let units = scaled / 10n;
  if (scaled % 10n >= 5n) units += 1n;
  const digits = units.toString().padStart(n + 1, '0');
  const body = n === 0 ? digits : `${digits.slice(0, -n)}.${digits.slice(-n)}`;
  return (negative && units !== 0n ? '-' : '') + body;
}

describe('decimals', () => {
  it('"F<n>", "N<n>" and "0.00…" round half away from zero', () => {
    fc.assert(
      fc.property(decimalText, fc.nat({ max: 8 }), (t, n) => {
        const expected = decimalOracle(t, n);
        const value = new Dec(t);
        expect(formatNumber(value, `F${n}`, INVARIANT)).toBe(expected);
        expect(formatNumber(value, n === 0 ? '0' : `0.${'0'.repeat(n)}`, INVARIANT)).toBe(expected);
        const [intPart, frac] = expected.replace('-', '').split('.') as [string, string?];
        const grouped = intPart.replace(/\B(?=(\d{3})+$)/g, ',') + (frac === undefined ? '' : `.${frac}`);
        expect(formatNumber(value, `N${n}`, INVARIANT)).toBe((expected.startsWith('-') ? '-' : '') + grouped);
        expect(formatNumber(value, n === 0 ? '#,##0' : `#,##0.${'0'.repeat(n)}`, INVARIANT)).toBe(
          formatNumber(value, `N${n}`, INVARIANT),
        );
      }),
      RUNS,
    );
  });

  it('"G" gives the decimal text back (normalised)', () => {
    fc.assert(
      fc.property(decimalText, (t) => {
        const expected = t.replace(/^(-?)0+(?=\d)/, '$1');
        const out = formatNumber(new Dec(t), 'G', INVARIANT);
        expect(out).toBe(/^-0(\.0*)?$/.test(expected) ? expected.slice(1) : expected);
      }),
      RUNS,
    );
  });
});

describe('dates', () => {
  it('an ISO-like custom format equals toISOString', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (d) => {
          expect(formatDate(d, "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fff'Z'", DE_DE)).toBe(d.toISOString());
          expect(formatDate(d, 'yyyy-MM-ddTHH:mm:ss.fffZ', INVARIANT)).toBe(d.toISOString());
        },
      ),
      RUNS,
    );
  });

  it('"u" of a DateTimeOffset is its instant in UTC', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0002-01-01T00:00:00Z'), max: new Date('9998-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (clock, offset) => {
          const value = dateTimeOffset(clock, offset);
          expect(formatDate(value, 'u')).toBe(value.utc.toISOString().slice(0, 19).replace('T', ' ') + 'Z');
        },
      ),
      RUNS,
    );
  });
});
