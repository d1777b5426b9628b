// Whether a render worker may cache *loaded* templates (the report model from loadFrx) instead
// of the file's bytes: only if a run never changes the model. Every core FastReport demo is
// loaded once, deep-frozen (any write would throw: ES modules run in strict mode) and run
// twice; HTML and PDF must equal those of a freshly loaded copy.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDataSetXml } from '../../src/report/data/index.js';
import { bindReportData, runReport } from '../../src/report/engine/index.js';
import { ReportWarnings } from '../../src/report/errors.js';
import { exportHtml } from '../../src/report/export/html.js';
import { exportPdfSync } from '../../src/report/export/pdf/index.js';
import { loadFrx } from '../../src/report/frx/index.js';
import type { ReportModel } from '../../src/report/frx/model.js';
import { CORE_DEMOS, DEMO_REPORTS_DIR } from '../support/fastreport-demos.js';
import { listData, listTemplate } from './render-pool-fixture.js';

const NWIND = readFileSync(`${DEMO_REPORTS_DIR}nwind.xml`);
const NOW = new Date(Date.UTC(2024, 4, 17, 9, 30));

function deepFreeze(value: unknown, seen = new Set<object>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value) || ArrayBuffer.isView(value)) return;
  seen.add(value);
  if (value instanceof Map) {
    for (const [k, v] of value) {
      deepFreeze(k, seen);
      deepFreeze(v, seen);
    }
  }
  if (value instanceof Set) for (const v of value) deepFreeze(v, seen);
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
}

function renderBoth(report: ReportModel, json?: unknown): { html: string; pdf: string } {
  const warnings = new ReportWarnings();
  const data = bindReportData(
    report.dictionary,
    json === undefined ? { datasets: { NorthWind: loadDataSetXml(NWIND) } } : { json },
    warnings,
  );
  const prepared = runReport(report, data, { now: NOW }, warnings);
  const pdf = exportPdfSync(prepared, { creationDate: NOW }).toString('latin1');
  // The document ID is random per export.
  return {
    html: exportHtml(prepared, { title: 'x' }),
    pdf: pdf.replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, '/ID […]'),
  };
}

const cases: { name: string; template: Buffer | string; json?: unknown }[] = [
  ...CORE_DEMOS.map((f) => ({ name: f, template: readFileSync(DEMO_REPORTS_DIR + f) })),
  { name: 'generated JSON list', template: listTemplate(), json: listData(200) },
];

describe('a loaded template is not changed by a run (workers may cache loaded models)', () => {
  it.each(cases)('$name', ({ template, json }) => {
    const expected = renderBoth(loadFrx(template).report, json);
    const shared = loadFrx(template).report;
    deepFreeze(shared);
    expect(() => ((shared.pages[0] as { name: string }).name = 'changed')).toThrow(TypeError); // frozen indeed
    expect(renderBoth(shared, json)).toEqual(expected);
    expect(renderBoth(shared, json)).toEqual(expected);
  });
});
