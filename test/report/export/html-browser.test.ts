// The HTML export as a browser draws it (headless Chromium; skipped with a message when it is
// missing, a failure under REQUIRE_CHROMIUM=1): what CSS alone cannot show in the markup.

import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/report/index.js';
import { announceChromiumSkip, CHROMIUM, CHROMIUM_LAUNCH_ARGS, REQUIRE_CHROMIUM } from '../../support/chromium.js';

announceChromiumSkip('HTML export browser tests');

const template =
  `<Report><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="120">
  <TextObject Name="Under" Width="300" Height="18.9" Text="underlined" Font="Arial, 10pt, style=Underline"/>
  <TextObject Name="Strike" Top="20" Width="300" Height="18.9" Text="struck out" Font="Arial, 10pt, style=Strikeout"/>
  <TextObject Name="Tabs" Top="40" Width="300" Height="18.9" Text="a&#9;b" Font="Arial, 10pt, style=Underline"/>
  <TextObject Name="Plain" Top="60" Width="300" Height="18.9" Text="plain" Font="Arial, 10pt"/>
  <TextObject Name="Tags" Top="80" Width="300" Height="18.9" Text="&lt;b&gt;bold&lt;/b&gt; rest" ` +
  `TextRenderType="HtmlTags" Font="Arial, 10pt, style=Underline"/>
</ReportTitleBand></ReportPage></Report>`;

describe.runIf(CHROMIUM !== undefined)('HTML export in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("draws an underlined or struck-out font's decoration on every piece of text, and none on plain text", async () => {
    const html = renderReport({ template, format: 'html' }).output as string;
    const page = await browser.newPage();
    await page.setContent(html);
    // For each text node: its text and the decoration line the browser draws it with (a
    // decoration shows when the node's element or an in-flow ancestor has it).
    // (A script string: the test's TypeScript has no DOM types.)
    const seen = (await page.evaluate(`(() => {
      const out = {};
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = (n.textContent || '').trim();
        if (!text) continue;
        const lines = new Set();
        for (let e = n.parentElement; e && e !== document.body; e = e.parentElement) {
          const cs = getComputedStyle(e);
          if (cs.textDecorationLine !== 'none') lines.add(cs.textDecorationLine);
          // Decorations do not propagate into absolutely positioned descendants.
          if (cs.position === 'absolute') break;
        }
        out[text] = [...lines];
      }
      return out;
    })()`)) as Record<string, string[]>;
    await page.close();
    expect(seen.underlined).toEqual(['underline']);
    expect(seen['struck out']).toEqual(['line-through']);
    expect(seen.a).toEqual(['underline']);
    expect(seen.b).toEqual(['underline']);
    expect(seen.plain).toEqual([]);
    expect(seen.bold).toEqual(['underline']);
  });
});

it.runIf(!CHROMIUM && REQUIRE_CHROMIUM)('needs Chromium (REQUIRE_CHROMIUM=1)', () => {
  expect.fail('REQUIRE_CHROMIUM=1 but no Chromium');
});
