// A date X axis (OADates): its labels at whole years, months, weeks, days or hours, about five of
// them over the range, as MS Chart picks a date interval type; each label formatted for its unit.

import type { ChartGroupBy } from '../frx/model.js';
import { addUnits, toOADate, unitStart } from './finish-data.js';

export interface DateTicks {
  ticks: number[];
  /** The .NET format of the labels. */
  format: string;
}

const STEPS: Record<string, number[]> = {
  Years: [1, 2, 5, 10, 20, 50, 100],
  Months: [1, 2, 3, 6],
  Weeks: [1, 2],
  Days: [1, 2, 5],
  Hours: [1, 2, 3, 6, 12],
};

/** The labels of a date axis from `min` to `max` (OADates). */
export function dateTicks(min: number, max: number): DateTicks {
  const days = Math.max(0, max - min);
  const unit: ChartGroupBy =
    days > 2 * 365 ? 'Years' : days > 60 ? 'Months' : days > 14 ? 'Weeks' : days >= 2 ? 'Days' : 'Hours';
  const perUnit: Record<string, number> = { Years: 365.25, Months: 30.44, Weeks: 7, Days: 1, Hours: 1 / 24 };
  const units = days / (perUnit[unit] as number);
  const steps = STEPS[unit] as number[];
  const step = steps.find((s) => units / s <= 8) ?? Math.ceil(units / 8);
  const ticks: number[] = [];
  let start = unitStart(min, unit);
  if (toOADate(start) < min - 1e-9) start = addUnits(start, 1, unit);
  for (let k = 0; k < 1000; k++) {
    const v = toOADate(addUnits(start, k * step, unit));
    if (!Number.isFinite(v) || v > max + 1e-9) break;
    ticks.push(v);
  }
  const format = unit === 'Years' ? 'yyyy' : unit === 'Hours' ? 'g' : 'd';
  return { ticks, format };
}
