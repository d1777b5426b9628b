// Test helpers: an nwind.xml reader independent of the data layer (regular expressions), and
// running a fixture through the engine.

import { readFileSync } from 'node:fs';
import { loadDataSetXml, type DataSet } from '../../../src/report/data/index.js';
import {
  bindReportData,
  runReport,
  shownText,
  type EngineOptions,
  type PreparedPage,
  type PreparedReport,
  type PreparedText,
} from '../../../src/report/engine/index.js';
import { ReportWarnings } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import type { ReportModel } from '../../../src/report/frx/model.js';
import { DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';

export const FIXTURE_DIR = DEMO_REPORTS_DIR;
export const NWIND_PATH = `${FIXTURE_DIR}nwind.xml`;
export const NWIND_TEXT = readFileSync(NWIND_PATH, 'utf8');
export const FIXED_NOW = new Date(Date.UTC(2024, 4, 17, 9, 30, 0));

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : (ENTITIES[e] ?? m),
  );

/** Rows of one nwind table as field maps (missing element = absent key), in file order. */
export function nwindRows(element: string): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  const re = new RegExp(`<${element}>([\\s\\S]*?)</${element}>`, 'g');
  for (const m of NWIND_TEXT.matchAll(re)) {
    const fields: Record<string, string> = {};
    for (const f of (m[1] as string).matchAll(/<(\w+)>([^<]*)<\/\1>/g)) fields[f[1] as string] = decode(f[2] as string);
    rows.push(fields);
  }
  return rows;
}

/** .NET's culture-aware string order (en-US), as FastReport sorts. */
export const collate = new Intl.Collator('en-US').compare;

let nwind: DataSet | undefined;
export function nwindDataSet(): DataSet {
  nwind ??= loadDataSetXml(NWIND_TEXT);
  return nwind;
}

export interface Run {
  prepared: PreparedReport;
  warnings: string[];
}

/** Runs a fixture (or template text) with nwind.xml bound as "NorthWind". */
export function runFixture(file: string, options: EngineOptions = {}): Run {
  return runTemplate(readFileSync(FIXTURE_DIR + file), { datasets: { NorthWind: nwindDataSet() } }, options);
}

export function runTemplate(
  template: Buffer | string,
  data: Parameters<typeof bindReportData>[1] = {},
  options: EngineOptions = {},
): Run {
  const { report, warnings } = loadFrx(template);
  return runLoaded(report, data, options, warnings);
}

/** Runs a template already loaded (its load warnings first in the run's). */
export function runLoaded(
  report: ReportModel,
  data: Parameters<typeof bindReportData>[1] = {},
  options: EngineOptions = {},
  loadWarnings: readonly string[] = [],
): Run {
  const w = new ReportWarnings();
  for (const x of loadWarnings) w.add(x);
  const ctx = bindReportData(report.dictionary, data, w);
  const prepared = runReport(report, ctx, { now: FIXED_NOW, ...options }, w);
  return { prepared, warnings: w.list };
}

export function texts(page: PreparedPage, name?: string): PreparedText[] {
  return page.items.filter((i): i is PreparedText => i.kind === 'text' && (name === undefined || i.name === name));
}

/** The shown text of every text item named `name`, page by page, in print order. */
export function textsOf(r: PreparedReport, name: string): string[] {
  return r.pages.flatMap((p) => texts(p, name).map(shownText));
}

/** Items named `name` with the page (1-based) they are on. */
export function itemsOf(r: PreparedReport, name: string): { page: number; text: string; item: PreparedText }[] {
  return r.pages.flatMap((p) => texts(p, name).map((item) => ({ page: p.index, text: shownText(item), item })));
}

/** en-US currency ("$1,234.50", negatives "-$1.00") of an exact decimal string. */
export function usd(cents: bigint): string {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  const whole = (a / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}$${whole}.${(a % 100n).toString().padStart(2, '0')}`;
}

/** "12.5" → 1250n (cents), half away from zero past two decimals. */
export function toCents(text: string): bigint {
  const [i, f = ''] = text.split('.');
  const digits = (f + '000').slice(0, 3);
  let c = BigInt(i ?? '0') * 100n + BigInt(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) c += 1n;
  return c;
}
