// The HTML exporter: document structure, escaping, links, pictures, and validity under the Nu
// Html Checker (npm package vnu-jar, run with Java; skipped with a message when either is
// missing, a failure under REQUIRE_JAVA=1).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';
import { afterAll, describe, expect, it } from 'vitest';
import { exportHtml } from '../../../src/report/export/html.js';
import { renderReport } from '../../../src/report/index.js';
import { type FaceFamily, getFace, webFontFileName } from '../../../src/report/text/index.js';
import { FIXTURE_DIR, NWIND_TEXT, runFixture } from '../engine/helpers.js';
import { htmlTexts } from './cli.js';
import { CORE_DEMOS } from '../../support/fastreport-demos.js';

const hostile =
  `<Report ReportInfo.Name="&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;"><ReportPage Name="P">
  <ReportTitleBand Name="T" Width="718.2" Height="200">
    <TextObject Name="A" Width="300" Height="18.9" Text="[JSON.item.evil]" Hyperlink.Value="javascript:alert(1)"/>
    <TextObject Name="B" Top="20" Width="300" Height="18.9" Text="mail" ` +
  `Hyperlink.Value="mailto:a@example.com?subject=&quot;hi&quot;"/>
    <TextObject Name="C" Top="40" Width="300" Height="18.9" Text="link" Hyperlink.Expression="[JSON.item.url]"/>
    <TextObject Name="D" Top="60" Width="300" Height="18.9" Text="[JSON.item.ctl]"/>
    <TextObject Name="E" Top="80" Width="300" Height="40" TextRenderType="HtmlTags" ` +
  `Text="&lt;b&gt;b&lt;/b&gt; &lt;font color=&quot;red;background:url(x)&quot;&gt;c&lt;/font&gt; ` +
  `[JSON.item.evil]"/>
    <PictureObject Name="Pic" Top="120" Width="50" Height="50" DataColumn="JSON.item.pic"/>
    <CrossViewObject Name="CrossView1" Left="400" Width="100" Height="50"/>
  </ReportTitleBand></ReportPage></Report>`;

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const hostileData = {
  evil: '<script>alert("x")</script> & \'quotes\'',
  url: 'https://example.com/?q="a"&b=<c>',
  ctl: 'bell\u0007 nul\u0000 lone\uD800 end',
  pic: PNG_1PX,
};

describe('HTML document', () => {
  const html = String(renderReport({ template: hostile, data: { json: hostileData }, format: 'html' }).output);

  it('is one HTML5 document without script', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</title>');
  });

  it('escapes data in text', () => {
    expect(htmlTexts(html)).toContain('<script>alert("x")</script> & \'quotes\'');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'.replace(/&quot;/g, '"'));
  });

  it('links only http, https and mailto targets, attribute-escaped', () => {
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="mailto:a@example.com?subject=%22hi%22"');
    expect(html).toContain('href="https://example.com/?q=%22a%22&amp;b=%3Cc%3E"');
  });

  it('replaces characters HTML does not allow', () => {
    expect(htmlTexts(html)).toContain('bell\uFFFD nul\uFFFD lone\uFFFD end');
  });

  it('keeps only safe colours from <font color>', () => {
    expect(html).not.toContain('background:url(x)');
  });

  it('embeds pictures as data URIs and draws unsupported objects as an empty box', () => {
    expect(html).toContain(`src="data:image/png;base64,${PNG_1PX}"`);
    expect(html).toContain('outline:1px dotted');
  });

  it('sizes each page in px and numbers it', () => {
    const r = runFixture('Simple List.frx').prepared;
    const out = exportHtml(r, { title: 'x' });
    for (const p of r.pages) expect(out).toContain(`data-page="${p.index}" style="width:793.8px;height:1122.66px;`);
  });

  it('embeds the fonts used when asked', () => {
    const out = exportHtml(runFixture('Text.frx').prepared, { embedFonts: true });
    expect(out).toMatch(/@font-face\{font-family:"Arimo";src:url\("data:font\/ttf;base64,/);
  });

  // Arimo lacks ✓ (DejaVu Sans draws it) and Chinese (Noto Sans SC).
  const mixed =
    '<Report><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="40">' +
    '<TextObject Name="A" Width="300" Height="18.9" Text="done ✓ 中文" Font="Arial, 10pt"/>' +
    '</ReportTitleBand></ReportPage></Report>';

  it('links served fonts: the faces of the text and its per-character fallbacks, those with unicode-range', () => {
    const out = renderReport({ template: mixed, format: 'html', fontUrl: (f) => `/fonts/${webFontFileName(f)}` })
      .output as string;
    const url = (family: FaceFamily) => `/fonts/${webFontFileName(getFace(family, false, false))}`;
    expect(out).toContain(
      `@font-face{font-family:"Arimo";src:url("${url('Arimo')}") format("woff2");` +
        'font-weight:400;font-style:normal;font-display:swap}',
    );
    expect(out).toContain(
      `@font-face{font-family:"DejaVu Sans";src:url("${url('DejaVu Sans')}") format("woff2");` +
        'font-weight:400;font-style:normal;font-display:swap;unicode-range:U+2713}',
    );
    expect(out).toContain(
      `@font-face{font-family:"Noto Sans SC";src:url("${url('Noto Sans SC')}") format("woff2");` +
        'font-weight:400;font-style:normal;font-display:swap;unicode-range:U+4E2D,U+6587}',
    );
    // The browser walks the list as the engine walks its fallbacks.
    expect(out).toContain('font-family:Arimo,DejaVu Sans,Noto Sans SC,Arial, Arimo');
    expect(out).not.toContain('Noto Sans KR');
  });

  it('embeds subsets of the characters drawn, with the advances of the whole faces', () => {
    const out = renderReport({ template: mixed, format: 'html', embedFonts: true }).output as string;
    const data = (family: string) => {
      const m = new RegExp(`font-family:"${family}";src:url\\("data:font/ttf;base64,([^"]+)"`).exec(out);
      return Buffer.from(m![1]!, 'base64');
    };
    const sc = data('Noto Sans SC');
    expect(sc.length).toBeLessThan(10_000); // the whole file is 10 MB
    const font = fontkit.create(sc) as fontkit.Font;
    const face = getFace('Noto Sans SC', false, false);
    expect(font.glyphForCodePoint(0x4e2d).advanceWidth).toBe(face.advance(0x4e2d));
    expect(font.hasGlyphForCodePoint(0x4e00)).toBe(false);
    expect((fontkit.create(data('DejaVu Sans')) as fontkit.Font).hasGlyphForCodePoint(0x2713)).toBe(true);
  });
});

// --------------------------------------------------------------------------------------------
// Nu Html Checker

function vnuJar(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('vnu-jar/package.json');
    const path = join(dirname(pkg), 'build', 'dist', 'vnu.jar');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const javaOk = spawnSync('java', ['-version'], { encoding: 'utf8' }).status === 0;
const jar = vnuJar();
const canCheck = javaOk && jar !== undefined;
const why = !javaOk ? 'java is not on PATH' : 'the npm package vnu-jar is not installed';
if (!canCheck) {
  if (process.env.REQUIRE_JAVA === '1') throw new Error(`REQUIRE_JAVA=1 but ${why}: the HTML validity test cannot run`);
  console.warn(`\n*** HTML validity test SKIPPED: ${why} (set REQUIRE_JAVA=1 to make this an error) ***\n`);
}

describe.skipIf(!canCheck)('Nu Html Checker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vnu-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Whole documents (up to 160 pages each, ~21 MB in all): about 30 s of Java on a 2-core machine.
  it('finds no error in the complete HTML of every demo report and of hostile data', async () => {
    const files: string[] = [];
    for (const f of CORE_DEMOS) {
      const out = renderReport({
        template: readFileSync(`${FIXTURE_DIR}${f}`),
        data: { datasetXml: NWIND_TEXT },
        format: 'html',
      });
      const file = join(dir, `${f.replace(/[^A-Za-z0-9]+/g, '_')}.html`);
      writeFileSync(file, out.output);
      files.push(file);
    }
    const h = join(dir, 'hostile.html');
    writeFileSync(h, renderReport({ template: hostile, data: { json: hostileData }, format: 'html' }).output);
    files.push(h);
    // Asynchronously: a synchronous wait of this long blocks the test worker, whose calls to
    // vitest's main process then time out ("Timeout calling onTaskUpdate") on a loaded machine.
    const stderr = await new Promise<string>((resolveRun, reject) => {
      const child = spawn('java', ['-Xss4m', '-jar', jar as string, '--format', 'json', ...files], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let text = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (text += d));
      child.once('error', reject);
      child.once('close', () => resolveRun(text));
    });
    const report = JSON.parse(stderr || '{"messages":[]}') as {
      messages: { type: string; subType?: string; message: string; url?: string; lastLine?: number }[];
    };
    const errors = report.messages.filter((m) => m.type === 'error' || m.type === 'non-document-error');
    expect(errors.map((m) => `${m.url ?? ''}:${m.lastLine ?? ''} ${m.message}`)).toEqual([]);
  }, 180_000);
});
