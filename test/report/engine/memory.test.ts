// What keeps a large report's memory down without changing what it prints: the first of two
// passes drops its finished pages (and a first pass that turns out to be the output is run again
// whole), and text frames are shared between items of the same box.

import { afterEach, describe, expect, it } from 'vitest';
import { Engine, shownText, type PreparedPage, type PreparedText } from '../../../src/report/engine/index.js';
import { runTemplate, texts, textsOf } from './helpers.js';

/** A list of `rows` rows, 20 px each, with "Page N of M" in a footer that can grow (a double pass). */
const list = (extra = ''): string => `<Report><ReportPage Name="P">
  <DataBand Name="D" Width="718.2" Height="20" DataSource="rows" ${extra}>
    <TextObject Name="T" Width="200" Height="20" Text="[JSON.item.rows.item.n]"/>
    <TextObject Name="U" Left="200" Width="200" Height="20" Text="[JSON.item.rows.item.g]" Duplicates="Merge"/>
  </DataBand>
  <PageFooterBand Name="F" Width="718.2" Height="20">
    <TextObject Name="N" Width="300" Height="20" CanGrow="true" Text="[PageNofM] [Page#]/[TotalPages#]"/>
  </PageFooterBand>
</ReportPage></Report>`;

const rowsOf = (n: number): { rows: { n: number; g: string }[] } => ({
  rows: Array.from({ length: n }, (_, i) => ({ n: i + 1, g: `g${Math.floor(i / 7)}` })),
});

type Probe = { cursor: { pages: { items: unknown[] }[] } };
const proto = Engine.prototype as unknown as Record<string, (this: Probe) => void>;
const originalReset = proto.resetForSecondPass as (this: Probe) => void;

describe('two passes', () => {
  afterEach(() => {
    proto.resetForSecondPass = originalReset;
  });

  it('drops the items of finished pages in the first pass, and prints every page whole in the second', () => {
    let firstPass: number[] = [];
    proto.resetForSecondPass = function (this: Probe) {
      firstPass = this.cursor.pages.map((p) => p.items.length);
      originalReset.call(this);
    };
    const r = runTemplate(list(), { json: rowsOf(500) }).prepared;
    const pages = r.pages.length;
    expect(pages).toBeGreaterThan(5);
    // First pass: only the last page still holds items.
    expect(firstPass).toHaveLength(pages);
    expect(firstPass.slice(0, -1).every((n) => n === 0)).toBe(true);
    expect(firstPass.at(-1)).toBeGreaterThan(0);
    // Output: every row once, in order, the total page count and the macros filled in.
    expect(textsOf(r, 'T')).toEqual(Array.from({ length: 500 }, (_, i) => String(i + 1)));
    r.pages.forEach((p, i) => {
      expect(texts(p, 'N').map(shownText)).toEqual([`Page ${i + 1} of ${pages} ${i + 1}/${pages}`]);
    });
    // Duplicates (recorded in the final pass only) still merge: one item per group and page.
    const merged = r.pages.flatMap((p) => texts(p, 'U').map(shownText));
    expect(merged.length).toBeLessThan(500 / 5);
    expect(new Set(merged).size).toBe(Math.ceil(500 / 7));
  });

  it('prints a first pass stopped at the page limit whole (it is the output)', () => {
    const stopped = runTemplate(list(), { json: rowsOf(3000) }, { maxPages: 4, truncatePages: true });
    expect(stopped.prepared.truncated).toBe(true);
    expect(stopped.warnings.some((w) => /Output truncated/.test(w))).toBe(true);
    const r = stopped.prepared;
    expect(r.pages).toHaveLength(4);
    for (const p of r.pages) expect(texts(p, 'T').length).toBeGreaterThan(10);
    const shown = textsOf(r, 'T');
    expect(shown).toEqual(Array.from({ length: shown.length }, (_, i) => String(i + 1)));
    // Page# macros are filled in on every page, as for any finished report.
    r.pages.forEach((p, i) => {
      expect(shownText(texts(p, 'N')[0] as PreparedText)).toContain(` ${i + 1}/4`);
    });
  });
});

describe('shared frames', () => {
  it('gives items of the same box one frozen frame, and others their own', () => {
    const r = runTemplate(list(), { json: rowsOf(40) }).prepared;
    const ts = r.pages.flatMap((p) => texts(p, 'T'));
    const first = ts[0] as PreparedText;
    expect(ts.every((t) => t.frame === first.frame)).toBe(true);
    expect(Object.isFrozen(first.frame)).toBe(true);
    expect(first.frame).toEqual({ x: 2, y: 0, width: 196, height: 20 });
    const footer = texts(r.pages[0] as PreparedPage, 'N')[0] as PreparedText;
    expect(footer.frame).not.toBe(first.frame);
    expect(footer.frame.width).toBe(296);
  });
});
