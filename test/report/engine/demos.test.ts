// FastReport's own demo reports with matrices, tables and subreports, from
// test/fixtures/fastreport: each runs on nwind.xml without an error, and a demo
// without a script prints no object as an empty "not supported" box (but the barcodes and
// charts). The demos with a script run it: each says nothing about a
// handler beyond the few named below. Stress-Test (1000x1000) runs here at 40 x 40 (the same
// script with a smaller bound), its diagonal checked; the full size is for the demo count.

import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_REPORTS_DIR, demoReport } from '../../support/fastreport-demos.js';
import { nwindDataSet, runTemplate } from './helpers.js';

const OBJECTS = ['MatrixObject', 'TableObject', 'SubreportObject'] as const;

/** Every demo, read once: its name and text (Stress-Test made smaller). */
let cached: { name: string; xml: string }[] | undefined;
function allDemos(): { name: string; xml: string }[] {
  cached ??= readdirSync(DEMO_REPORTS_DIR)
    .filter((f) => f.endsWith('.frx'))
    .sort()
    .map((name) => ({ name, xml: smaller(name, demoReport(name).toString('utf8')) }));
  return cached;
}

/** The demos holding each object type, with their text. */
function demos(): { name: string; xml: string; types: string[] }[] {
  return allDemos().flatMap((d) => {
    const types = OBJECTS.filter((t) => d.xml.includes(`<${t} `));
    return types.length > 0 ? [{ ...d, types }] : [];
  });
}

/** Stress-Test's script at 40 × 40 instead of 1000 × 1000. */
function smaller(name: string, xml: string): string {
  return name === 'Stress-Test (1000x1000).frx' ? xml.replace('i &lt;= 1000', 'i &lt;= 40') : xml;
}

/** Every demo that carries a script. */
function scriptedDemos(): { name: string; xml: string }[] {
  return allDemos().filter((d) => d.xml.includes('<ScriptText>'));
}

/** What a scripted demo may still warn about, and why. */
const EXPECTED_SCRIPT_WARNINGS: Record<string, RegExp> = {
  // Refused on purpose: the script posts to a web service (HttpClient, await).
  'Dialog-WebResponse Book a room.frx': /await|HttpClient/,
  // A preview-window click handler that uses reflection: refused at load, never run anyway.
  'Handle Preview Clicks.frx': /GetType/,
};

describe('FastReport demos with matrices, tables and subreports', () => {
  const list = demos();

  it('are the 19 matrix, 14 table and 2 subreport demos', () => {
    const count = (t: string): number => list.filter((d) => d.types.includes(t)).length;
    expect([count('MatrixObject'), count('TableObject'), count('SubreportObject')]).toEqual([19, 14, 2]);
  });

  it.each(list.map((d) => [d.name, d] as const))('%s runs, its objects printed', (_, d) => {
    const { prepared, warnings } = runTemplate(d.xml, { datasets: { NorthWind: nwindDataSet() } });
    expect(prepared.pages.length).toBeGreaterThan(0);
    const scripted = warnings.some((w) => w.startsWith('ScriptText'));
    const missing = warnings.filter((w) => /is not supported and will not be rendered/.test(w));
    if (!scripted) expect(missing).toEqual([]);
    // Whatever needs a script, the matrices, tables and subreports themselves are never boxes.
    expect(missing.filter((w) => OBJECTS.some((t) => w.startsWith(t)))).toEqual([]);
  });
});

describe('FastReport demos with scripts', () => {
  const list = scriptedDemos();

  it('are the 35 demos that carry a script', () => {
    expect(list.length).toBe(35);
  });

  it.each(list.map((d) => [d.name, d] as const))('%s runs its script', (name, d) => {
    const { prepared, warnings } = runTemplate(d.xml, { datasets: { NorthWind: nwindDataSet() } });
    expect(prepared.pages.length).toBeGreaterThan(0);
    const about = warnings.filter((w) => /script|handler|ManualBuild|Script line/i.test(w));
    const allowed = EXPECTED_SCRIPT_WARNINGS[name];
    expect(about.filter((w) => !allowed?.test(w))).toEqual([]);
  });

  it('fills Stress-Test’s matrix from its ManualBuild handler: value i at row i, column i', () => {
    const d = list.find((x) => x.name === 'Stress-Test (1000x1000).frx');
    if (!d) throw new Error('Stress-Test (1000x1000).frx is not among the demos');
    const { prepared } = runTemplate(d.xml, { datasets: { NorthWind: nwindDataSet() } });
    const texts = prepared.pages.flatMap((p) => p.items.flatMap((i) => (i.kind === 'text' ? [i] : [])));
    // The data cells holding a value are exactly the diagonal: 1…40, each once, each below its
    // row header and right of its column header of the same number.
    const headersByText = (t: string) => texts.filter((i) => i.text === t);
    for (let i = 1; i <= 40; i++) {
      const same = headersByText(String(i));
      // A column header, a row header and the data cell (and the totals of 1 row/column: 3 more).
      expect(same.length).toBeGreaterThanOrEqual(3);
    }
    const total = texts.find((i) => i.text === String((40 * 41) / 2));
    expect(total).toBeDefined();
  });
});
