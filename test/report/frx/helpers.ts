import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { allBands, allObjects, loadFrx } from '../../../src/report/frx/load.js';
import type { BandModel, ReportModel, ReportObjectModel, ReportPageModel } from '../../../src/report/frx/model.js';
import { CORE_DEMOS, DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';

export const FIXTURE_DIR = DEMO_REPORTS_DIR;

/** The FastReport demos every loader test runs over. */
export const FIXTURES: string[] = [...CORE_DEMOS];

export function fixtureBytes(name: string): Buffer {
  return readFileSync(FIXTURE_DIR + name);
}

export function loadFixture(name: string): { report: ReportModel; warnings: string[] } {
  return loadFrx(fixtureBytes(name));
}

export function page0(report: ReportModel): ReportPageModel {
  const p = report.pages[0];
  if (!p) throw new Error('no page');
  return p;
}

export function band(report: ReportModel, name: string): BandModel {
  for (const p of report.pages) {
    const b = allBands(p).find((x) => x.name === name);
    if (b) return b;
  }
  throw new Error(`no band ${name}`);
}

export function obj<T extends ReportObjectModel['type']>(
  report: ReportModel,
  name: string,
  type: T,
): Extract<ReportObjectModel, { type: T }> {
  for (const p of report.pages) {
    const o = allObjects(p).find((x) => x.name === name);
    if (o) {
      expect(o.type).toBe(type);
      return o as Extract<ReportObjectModel, { type: T }>;
    }
  }
  throw new Error(`no object ${name}`);
}

/** Runs fn, expects a TemplateError and returns it. */
export function templateError(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TemplateError);
    return err as TemplateError;
  }
  throw new Error('expected a TemplateError, got none');
}

/** Runs fn and returns [result or error, elapsed ms]. */
export function timed<T>(fn: () => T): [T | unknown, number] {
  const t0 = performance.now();
  try {
    return [fn(), performance.now() - t0];
  } catch (err) {
    return [err, performance.now() - t0];
  }
}

/** A minimal template around the given page content / report children. */
export function frx(pageContent: string, extra = '', reportAttrs = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp"${reportAttrs ? ` ${reportAttrs}` : ''}>
  ${extra}
  <Dictionary/>
  <ReportPage Name="Page1">
    ${pageContent}
  </ReportPage>
</Report>`;
}
