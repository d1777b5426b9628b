// The render worker's pieces that run without a thread: the template cache (path + mtime +
// size + inode) and one job's rendering (format table, output bytes), in-process.

import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TemplateError } from '../../src/report/errors.js';
import { renderReport } from '../../src/report/render.js';
import { mergeDataIntoTemplate } from '../../src/report/template/index.js';
import { ownBytes, runRenderJob } from '../../src/srs/render-pool/render-job.js';
import { TemplateCache } from '../../src/srs/render-pool/template-cache.js';
import { listData, listTemplate, withoutPdfTimestamps } from './render-pool-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'render-pool-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIXED_TIME = new Date(Date.UTC(2024, 0, 1));
let fileNo = 0;
function templateFile(content: string): string {
  const path = join(dir, `t${++fileNo}.frx`);
  writeFileSync(path, content);
  return path;
}

/** Moves a file's mtime by `seconds` (a rewrite within the same clock tick keeps its mtime). */
function touch(path: string, seconds: number): void {
  const st = statSync(path);
  utimesSync(path, st.atime, new Date(st.mtimeMs + seconds * 1000));
}

describe('TemplateCache', () => {
  it('reads a file once while it is unchanged', () => {
    const cache = new TemplateCache();
    const path = templateFile(listTemplate('A'));
    const first = cache.get(path);
    const second = cache.get(path);
    expect(first.hit).toBe(false);
    expect(second.hit).toBe(true);
    expect(second.template).toBe(first.template);
    expect(first.template.bytes.toString()).toBe(listTemplate('A'));
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
  });

  it('reads it again when its mtime changes, even with the same size', () => {
    const cache = new TemplateCache();
    const path = templateFile(listTemplate('AAAA'));
    cache.get(path);
    writeFileSync(path, listTemplate('BBBB')); // same length
    touch(path, 5);
    const after = cache.get(path);
    expect(after.hit).toBe(false);
    expect(after.template.bytes.toString()).toContain('BBBB');
  });

  it('reads it again when its size changes with the same mtime', () => {
    const cache = new TemplateCache();
    const path = templateFile(listTemplate('A'));
    utimesSync(path, FIXED_TIME, FIXED_TIME);
    cache.get(path);
    writeFileSync(path, listTemplate('A longer title'));
    utimesSync(path, FIXED_TIME, FIXED_TIME);
    const after = cache.get(path);
    expect(after.hit).toBe(false);
    expect(after.template.bytes.toString()).toContain('A longer title');
  });

  it('reads it again when another file with the same mtime and size is renamed over it', () => {
    const cache = new TemplateCache();
    const path = templateFile(listTemplate('CCCC'));
    const replacement = templateFile(listTemplate('DDDD'));
    for (const p of [path, replacement]) utimesSync(p, FIXED_TIME, FIXED_TIME);
    cache.get(path);
    renameSync(replacement, path); // only the inode tells the two apart
    const after = cache.get(path);
    expect(after.hit).toBe(false);
    expect(after.template.bytes.toString()).toContain('DDDD');
  });

  it('keeps at most maxEntries templates, dropping the least recently used', () => {
    const cache = new TemplateCache({ maxEntries: 2 });
    const [a, b, c] = [templateFile('a'), templateFile('b'), templateFile('c')];
    cache.get(a);
    cache.get(b);
    cache.get(a); // a is now the most recent
    cache.get(c); // drops b
    expect(cache.get(a).hit).toBe(true);
    expect(cache.get(b).hit).toBe(false);
  });

  it('answers TemplateError without the server path for a missing file, a folder, a huge file', () => {
    const cache = new TemplateCache({ maxFileBytes: 100 });
    const missing = join(dir, 'missing.frx');
    const folder = join(dir, 'folder.frx');
    mkdirSync(folder);
    const big = templateFile('x'.repeat(101));
    for (const [path, message] of [
      [missing, 'the template file cannot be read (ENOENT)'],
      [folder, 'the template is not a file'],
      [big, 'the template file is larger than 100 bytes'],
    ] as const) {
      let caught: unknown;
      try {
        cache.get(path);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(TemplateError);
      expect((caught as Error).message).toBe(message);
      expect((caught as Error).message).not.toContain(dir);
    }
    expect(cache.misses).toBe(0);
  });
});

describe('runRenderJob', () => {
  it('renders HTML exactly as renderReport does in-process', async () => {
    const path = templateFile(listTemplate('In process'));
    const data = listData(120);
    const nowMs = Date.UTC(2025, 2, 4, 5, 6);
    const produced = await runRenderJob(
      { templatePath: path, format: 'html', data, culture: 'de-DE', nowMs },
      new TemplateCache(),
    );
    const direct = renderReport({
      template: listTemplate('In process'),
      data: { json: data },
      format: 'html',
      culture: 'de-DE',
      now: new Date(nowMs),
    });
    expect(Buffer.from(produced.output).toString('utf8')).toBe(direct.output);
    expect(produced.contentType).toBe('text/html; charset=utf-8');
    expect(produced.pages).toBe(direct.pages);
    expect(produced.pages).toBeGreaterThan(1);
    expect(produced.warnings).toEqual(direct.warnings);
  });

  it('renders PDF as renderReport does in-process (apart from the creation time)', async () => {
    const path = templateFile(listTemplate('PDF'));
    const data = listData(120);
    const nowMs = Date.UTC(2025, 2, 4, 5, 6);
    const produced = await runRenderJob(
      { templatePath: path, format: 'pdf', data, culture: 'de-DE', nowMs },
      new TemplateCache(),
    );
    const direct = renderReport({
      template: listTemplate('PDF'),
      data: { json: data },
      format: 'pdf',
      culture: 'de-DE',
      now: new Date(nowMs),
    });
    expect(Buffer.from(produced.output.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(withoutPdfTimestamps(produced.output)).toBe(withoutPdfTimestamps(direct.output as Buffer));
    expect(produced).toMatchObject({ contentType: 'application/pdf', pages: direct.pages, warnings: direct.warnings });
  });

  it('merges the data into the template for .frx exactly as mergeDataIntoTemplate does', async () => {
    const path = templateFile(listTemplate('Merged'));
    const data = listData(3);
    const produced = await runRenderJob({ templatePath: path, format: 'frx', data }, new TemplateCache());
    const text = Buffer.from(produced.output).toString('utf8');
    expect(text).toBe(mergeDataIntoTemplate(listTemplate('Merged'), data));
    // the data, in the connection string attribute
    expect(text).toContain('&quot;customer&quot;:&quot;Customer 3 &amp; Sons&quot;');
    expect(produced).toMatchObject({ contentType: 'application/xml; charset=utf-8', pages: 0, warnings: [] });
  });

  it('runs a DetailReport link’s report from the template’s folder, and none from elsewhere', async () => {
    const linked = (file: string) =>
      '<?xml version="1.0" encoding="utf-8"?><Report><ReportPage Name="Page1">' +
      '<ReportTitleBand Name="T" Width="718.2" Height="20"><TextObject Name="L" Width="300" Height="20" Text="go" ' +
      `Hyperlink.Kind="DetailReport" Hyperlink.Value="42" Hyperlink.DetailReportName="${file}" ` +
      'Hyperlink.ReportParameter="P"/></ReportTitleBand></ReportPage></Report>';
    const folder = join(dir, 'detail');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'detail.frx'),
      '<?xml version="1.0" encoding="utf-8"?><Report><Dictionary><Parameter Name="P" DataType="System.String"/>' +
        '</Dictionary><ReportPage Name="Page1"><ReportTitleBand Name="T" Width="718.2" Height="20">' +
        '<TextObject Name="D" Width="300" Height="20" Text="Detail of [P]"/></ReportTitleBand></ReportPage></Report>',
    );
    writeFileSync(join(dir, 'outside.frx'), readFileSync(join(folder, 'detail.frx')));
    for (const [file, pages, shows] of [
      ['detail.frx', 2, true],
      ['../outside.frx', 1, false],
      ['missing.frx', 1, false],
    ] as const) {
      const path = join(folder, `main-${pages}-${file.length}.frx`);
      writeFileSync(path, linked(file));
      const produced = await runRenderJob({ templatePath: path, format: 'html', data: {} }, new TemplateCache());
      expect(produced.pages).toBe(pages);
      expect(Buffer.from(produced.output).toString('utf8').includes('Detail of 42')).toBe(shows);
    }
  });

  it('reports whether the template came from the cache', async () => {
    const cache = new TemplateCache();
    const path = templateFile(listTemplate());
    const seen: boolean[] = [];
    await runRenderJob({ templatePath: path, format: 'html', data: listData(1) }, cache, (hit) => seen.push(hit));
    await runRenderJob({ templatePath: path, format: 'html', data: listData(1) }, cache, (hit) => seen.push(hit));
    expect(seen).toEqual([false, true]);
  });

  it('throws TemplateError for a broken template and an unknown format', async () => {
    const broken = templateFile('<Report><ReportPage>');
    await expect(
      runRenderJob({ templatePath: broken, format: 'html', data: {} }, new TemplateCache()),
    ).rejects.toBeInstanceOf(TemplateError);
    const fine = templateFile(listTemplate());
    await expect(
      runRenderJob({ templatePath: fine, format: 'docx' as 'html', data: {} }, new TemplateCache()),
    ).rejects.toThrow('unsupported output format "docx"');
  });
});

describe('ownBytes', () => {
  it('gives bytes that own their whole ArrayBuffer (transferable without taking others along)', () => {
    const fromString = ownBytes('héllo');
    expect(Buffer.from(fromString).toString('utf8')).toBe('héllo');
    expect(fromString.byteOffset).toBe(0);
    expect(fromString.buffer.byteLength).toBe(fromString.byteLength);

    const pooled = Buffer.from('small'); // a slice of Node's shared allocation pool
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const copied = ownBytes(pooled);
    expect(copied.buffer.byteLength).toBe(5);
    expect(Buffer.from(copied).toString()).toBe('small');

    const whole = new Uint8Array([1, 2, 3]);
    expect(ownBytes(whole)).toBe(whole);
  });
});
