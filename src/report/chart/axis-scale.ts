// An axis' scale as MS Chart computes it automatically (AxisScale.EstimateNumberAxis,
// CalcInterval, RoundedValues): about five intervals of 1, 2 or 5 × a power of ten, the minimum
// at zero unless values go below it, the maximum rounded up one interval past the largest value.

export interface Scale {
  min: number;
  max: number;
  interval: number;
}

/** CalcInterval: the "intelligent" interval near `diff` (2, 5 or 10 × 10^k). */
export function niceInterval(diff: number): number {
  if (!(diff > 0) || !Number.isFinite(diff)) return 1;
  // The power of ten below diff: diff / 10^step lies in (1, 10] (MS Chart's loops, so that an
  // exact power of ten gives 10 × the power below it, as there).
  let step = -1;
  let temp = diff;
  while (temp > 1 && step < 400) {
    step++;
    temp /= 10;
  }
  if (diff < 1) {
    step = 0;
    temp = diff;
    while (temp < 1 && step > -400) {
      step--;
      temp *= 10;
    }
  }
  const power = 10 ** step;
  const t = diff / power;
  const nice = t < 3 ? 2 : t < 7 ? 5 : 10;
  return nice * power;
}

/** The auto scale of a value axis over [lo, hi]. */
export function valueScale(
  lo: number,
  hi: number,
  opts: { startFromZero: boolean; min?: number; max?: number; interval?: number; intervals?: number },
): Scale {
  let min = Number.isFinite(lo) ? lo : 0;
  let max = Number.isFinite(hi) ? hi : 0;
  if (opts.startFromZero) {
    if (min > 0) min = 0;
    if (max < 0) max = 0;
  }
  const autoMin = opts.min === undefined;
  const autoMax = opts.max === undefined;
  if (!autoMin) min = opts.min as number;
  if (!autoMax) max = opts.max as number;
  let interval: number;
  if (opts.interval !== undefined && opts.interval > 0) interval = opts.interval;
  else if (max === min) {
    max = min + 1;
    interval = 0.2;
  } else interval = niceInterval((max - min) / (opts.intervals ?? 5));
  if (autoMin) min = min < 0 || !opts.startFromZero ? (Math.ceil(min / interval) - 1) * interval : 0;
  if (autoMax) max = max <= 0 && opts.startFromZero ? 0 : (Math.floor(max / interval) + 1) * interval;
  if (max <= min) max = min + interval;
  return { min: round(min), max: round(max), interval };
}

/** The label values of a scale: min, min + interval, … ≤ max (at most 1000). */
export function scaleTicks(s: Scale): number[] {
  const out: number[] = [];
  for (let i = 0; i <= 1000; i++) {
    const v = round(s.min + i * s.interval);
    if (v > s.max + s.interval * 1e-9) break;
    out.push(v);
  }
  return out;
}

const round = (v: number): number => Number.parseFloat(v.toPrecision(12));
