// The render workers' warm-up (src/srs/render-pool/warmup.ts, RenderPool.warmUp): its built-in
// report renders (a broken one would fail every warm-up silently, leaving cold workers), a job
// cuts it short, and a warmed pool renders as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { WARMUP_STYLES, warmUp, warmupData, warmupTemplate } from '../../src/srs/render-pool/warmup.js';
import { listData, listTemplate, renderPoolsClosedAfterEach } from './render-pool-fixture.js';

const pool = renderPoolsClosedAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'pc-render-warmup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('render worker warm-up', () => {
  it.each(WARMUP_STYLES)('its %s report renders in both formats: pages, totals, formats, no warnings', (style) => {
    const template = warmupTemplate(style);
    const data = { json: warmupData(200) };
    const html = renderReport({
      template,
      data,
      format: 'html',
      now: new Date(Date.UTC(2026, 0, 1)),
      culture: 'en-US',
    });
    const text = String(html.output);
    expect(html.pages).toBeGreaterThanOrEqual(4);
    expect(html.warnings).toEqual([]);
    expect(text).toContain(`Page 1 of ${html.pages}`);
    expect(text).toContain('200 rows');
    expect(text).toContain('1 Jan 2026');
    // The styles differ as they are meant to: fonts on every object or not, and the page numbers'
    // macro (the same text either way).
    expect(template.includes('[PageNofM]')).toBe(style === 'designer');
    const objects = template.match(/<TextObject /g)?.length;
    const withFont = template.match(/<TextObject [^>]*Font=/g)?.length;
    if (style === 'designer') expect(withFont).toBe(objects);
    else expect(withFont).toBeLessThan(objects!);
    const pdf = renderReport({ template, data, format: 'pdf', now: new Date(Date.UTC(2026, 0, 1)) });
    expect(pdf.pages).toBe(html.pages);
    expect(
      Buffer.from(pdf.output as Uint8Array)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('renders every round unless told to stop', async () => {
    const full = await warmUp(60_000, undefined, () => false);
    expect(full.error).toBeUndefined();
    expect(full.renders).toBe(24);
    let asked = 0;
    const cut = await warmUp(60_000, undefined, () => ++asked > 2);
    expect(cut.renders).toBe(2);
  });

  it('a warmed pool starts its workers at once and renders as before', async () => {
    const file = join(dir, 'list.frx');
    writeFileSync(file, listTemplate());
    const p = pool({ size: 1 });
    p.warmUp();
    const r = await p.render({ templatePath: file, format: 'html', data: listData(30) });
    expect(r.pages).toBeGreaterThan(0);
    expect(p.stats().lost).toEqual({ timeout: 0, memory: 0, crash: 0, aborted: 0 });
  });
});
