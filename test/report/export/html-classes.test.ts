// The text frames' font, line height and colour as classes of the head's <style>: one rule per
// distinct style, class names from a counter, at most MAX_TEXT_CLASSES, none made after the head.

import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CLASSES, TextClasses } from '../../../src/report/export/html-classes.js';
import { exportHtmlChunks } from '../../../src/report/export/html.js';
import { renderReport } from '../../../src/report/index.js';

const template =
  `<Report><ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="20" DataSource="rows">
  <TextObject Name="A" Width="200" Height="20" Text="[JSON.item.rows.item.s]" Font="Arial, 9pt"/>
  <TextObject Name="B" Left="200" Width="200" Height="20" Text="[JSON.item.rows.item.s]" Font="Arial, 9pt"/>
  <TextObject Name="C" Left="400" Width="200" Height="20" Text="b" Font="Times New Roman, 12pt, style=Bold" ` +
  `TextFill.Color="Red"/>
  <TextObject Name="Empty" Left="600" Width="100" Height="20" Fill.Color="Yellow"/>
</DataBand></ReportPage></Report>`;
const rows = ['one', 'two', 'three'].map((s) => ({ s }));

describe('text classes in the HTML export', () => {
  const r = renderReport({ template, data: { json: { rows } }, format: 'html' });
  const html = String(r.output);
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  const rules = style.match(/^\.t\d+\{.*\}$/gm) ?? [];

  it('declares one rule per distinct frame style and gives every text frame its class', () => {
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatch(
      /^\.t0\{font-family:Arial, Arimo, "Liberation Sans", [^;]*;font-size:12px;line-height:[\d.]+px;color:#000000\}$/,
    );
    expect(rules[1]).toMatch(
      /^\.t1\{font-family:[^;]*;font-size:16px;font-weight:700;line-height:[\d.]+px;color:#ff0000\}$/,
    );
    expect(html.match(/<div class="f t0" style="left:[^"]*">/g)).toHaveLength(6);
    expect(html.match(/<div class="f t1" style="left:[^"]*">/g)).toHaveLength(3);
    // No frame or line repeats the font or colour inline; the empty text has no frame at all.
    expect(html).not.toMatch(/style="[^"]*font-family/);
    expect(html.match(/class="f/g)).toHaveLength(9);
  });

  it('writes the same head when the document is handed on in pieces', () => {
    const chunks: string[] = [];
    exportHtmlChunks(r.prepared, {}, (c) => chunks.push(c));
    expect(chunks.join('')).toBe(html);
    expect(chunks[0]).toContain(rules.join('\n'));
  });
});

describe('TextClasses', () => {
  it('makes at most MAX_TEXT_CLASSES classes; the rest stay inline (undefined)', () => {
    const c = new TextClasses();
    const names = Array.from({ length: MAX_TEXT_CLASSES + 10 }, (_, i) => c.classFor('font-size:12px', 10, `#${i}`));
    expect(names[0]).toBe('t0');
    expect(names[MAX_TEXT_CLASSES - 1]).toBe(`t${MAX_TEXT_CLASSES - 1}`);
    expect(names.slice(MAX_TEXT_CLASSES).every((n) => n === undefined)).toBe(true);
    // A style seen before keeps its class.
    expect(c.classFor('font-size:12px', 10, '#5')).toBe('t5');
    expect(c.css().split('\n')).toHaveLength(MAX_TEXT_CLASSES);
  });

  it('makes no class once the head is written, and keeps a rule from ending the <style>', () => {
    const c = new TextClasses();
    expect(c.classFor('font-family:a</style><script>', 10, '#000000')).toBe('t0');
    expect(c.css()).toBe('.t0{font-family:a\\3c /style>\\3c script>;line-height:10px;color:#000000}');
    expect(c.classFor('font-family:b', 10, '#000000')).toBeUndefined();
    expect(c.classFor('font-family:a</style><script>', 10, '#000000')).toBe('t0');
  });
});
