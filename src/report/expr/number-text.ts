// Default text of numbers (.NET Core 3.0+ ToString(): shortest round-trip digits) for double and
// float.

function shortestToString(n: number, sciFrom: number, digitsFor: (n: number) => string): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '∞';
  if (n === -Infinity) return '-∞';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const exp = digitsFor(n); // like "-1.2345e+17"
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(exp)!;
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const e = Number(m[4]);
  if (e >= sciFrom || e < -4) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ae = Math.abs(e);
    return `${sign}${mant}E${e < 0 ? '-' : '+'}${ae < 10 ? `0${ae}` : ae}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return sign + digits + '0'.repeat(e + 1 - digits.length);
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** double.ToString() (invariant digits): 0.1 → "0.1", 1e15 → "1E+15", 1e-5 → "1E-05". */
export function doubleToString(n: number): string {
  return shortestToString(n, 15, (x) => x.toExponential());
}

/** float.ToString(): the shortest digits that read back as the same float32. */
export function singleToString(n: number): string {
  return shortestToString(Math.fround(n), 7, (x) => {
    for (let p = 1; p <= 9; p++) {
      const s = x.toExponential(p - 1);
      if (Math.fround(Number(s)) === x) return s;
    }
    return x.toExponential(8);
  });
}
