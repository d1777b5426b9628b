// The render pool with real worker threads (running the TypeScript sources through tsx):
// results identical to an in-process render, workers in parallel, the bounded queue, the
// template cache across jobs, errors a client may see, close().

import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TemplateError } from '../../src/report/errors.js';
import { loadFrx } from '../../src/report/frx/index.js';
import { renderReport } from '../../src/report/render.js';
import { mergeDataIntoTemplate } from '../../src/report/template/index.js';
import {
  createRenderPool,
  PoolBusyError,
  JobFailedError,
  PoolClosedError,
  TemplateRenderError,
} from '../../src/srs/render-pool/index.js';
import {
  listData,
  listTemplate,
  track,
  waitFor,
  withoutPdfTimestamps,
  renderPoolsClosedAfterEach,
} from './render-pool-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'render-pool-'));
const LIST = join(dir, 'list.frx');
writeFileSync(LIST, listTemplate('Pool list'));
const pool = renderPoolsClosedAfterEach();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('render pool', () => {
  it('renders exactly what renderReport renders in-process, output in its own transferred buffer', async () => {
    const p = pool({ size: 1 });
    const data = listData(150);
    const nowMs = Date.UTC(2025, 2, 4, 5, 6);
    const outcome = await p.render({
      templatePath: LIST,
      format: 'html',
      data,
      culture: 'de-DE',
      nowMs,
      requestId: 'req-1',
    });
    const direct = renderReport({
      template: listTemplate('Pool list'),
      data: { json: data },
      format: 'html',
      culture: 'de-DE',
      now: new Date(nowMs),
    });
    expect(Buffer.isBuffer(outcome.output)).toBe(true);
    expect(outcome.output.toString('utf8')).toBe(direct.output);
    expect(outcome.output.toString('utf8')).toContain('2025-03-04 05:06');
    expect(outcome.contentType).toBe('text/html; charset=utf-8');
    expect(outcome.pages).toBe(direct.pages);
    expect(outcome.pages).toBeGreaterThan(1);
    expect(outcome.warnings).toEqual(direct.warnings);
    // The bytes arrived in the ArrayBuffer the worker transferred, not copied into a shared one.
    expect(outcome.output.byteOffset).toBe(0);
    expect(outcome.output.buffer.byteLength).toBe(outcome.output.byteLength);

    const withWarning = await p.render({ templatePath: LIST, format: 'html', data: listData(2), culture: 'xx-XX' });
    expect(withWarning.warnings).toEqual(
      renderReport({
        template: listTemplate('Pool list'),
        data: { json: listData(2) },
        format: 'html',
        culture: 'xx-XX',
      }).warnings,
    );
    expect(withWarning.warnings.length).toBeGreaterThan(0);

    const pdf = await p.render({ templatePath: LIST, format: 'pdf', data, culture: 'de-DE', nowMs });
    const directPdf = renderReport({
      template: listTemplate('Pool list'),
      data: { json: data },
      format: 'pdf',
      culture: 'de-DE',
      now: new Date(nowMs),
    });
    expect(withoutPdfTimestamps(pdf.output)).toBe(withoutPdfTimestamps(directPdf.output as Buffer));
    expect(pdf).toMatchObject({ contentType: 'application/pdf', pages: directPdf.pages, warnings: directPdf.warnings });
    expect(pdf.output.buffer.byteLength).toBe(pdf.output.byteLength);

    const merged = await p.render({ templatePath: LIST, format: 'frx', data: listData(3) });
    expect(merged.output.toString('utf8')).toBe(mergeDataIntoTemplate(listTemplate('Pool list'), listData(3)));
    expect(merged).toMatchObject({ contentType: 'application/xml; charset=utf-8', pages: 0, warnings: [] });
  });

  it('runs up to `size` jobs at once and queues the rest in order', async () => {
    const p = pool({ size: 2 });
    let maxBusy = 0;
    let maxQueued = 0;
    const jobs = [3000, 3000, 50].map((rows) =>
      track(p.render({ templatePath: LIST, format: 'html', data: listData(rows) })),
    );
    const sampler = setInterval(() => {
      const s = p.stats();
      maxBusy = Math.max(maxBusy, s.busy);
      maxQueued = Math.max(maxQueued, s.queued);
    }, 2);
    const order: number[] = [];
    jobs.forEach((j, i) => {
      j.promise.then(() => order.push(i));
    });
    const outcomes = await Promise.all(jobs.map((j) => j.promise));
    clearInterval(sampler);
    expect(maxBusy).toBe(2);
    expect(maxQueued).toBeGreaterThanOrEqual(1);
    expect(outcomes.map((o) => o.pages)).toEqual([outcomes[0]?.pages, outcomes[0]?.pages, 1]);
    // The third job waited for one of the first two: it cannot finish before both started.
    expect(order.indexOf(2)).toBeGreaterThan(0);
    expect(p.stats()).toMatchObject({ size: 2, busy: 0, queued: 0 });
  });

  it('rejects at once with PoolBusyError (and a Retry-After) when the queue is full', async () => {
    const p = pool({ size: 1, queueLimit: 1 });
    const running = track(p.render({ templatePath: LIST, format: 'html', data: listData(2000) }));
    const queued = track(p.render({ templatePath: LIST, format: 'html', data: listData(5) }));
    const refused = p.render({ templatePath: LIST, format: 'html', data: listData(5) });
    const err = await refused.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PoolBusyError);
    expect(running.settled || queued.settled).toBe(false);
    const retry = (err as PoolBusyError).retryAfterSeconds;
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
    const { busy, queued: waiting } = p.stats();
    expect(busy + waiting).toBe(2);
    await expect(running.promise).resolves.toMatchObject({ contentType: 'text/html; charset=utf-8' });
    await expect(queued.promise).resolves.toMatchObject({ pages: 1 });
    // Room again.
    await expect(p.render({ templatePath: LIST, format: 'html', data: listData(1) })).resolves.toMatchObject({
      pages: 1,
    });
  });

  it('reuses a worker’s cached template and reads it again when the file changes', async () => {
    const path = join(dir, 'cached.frx');
    writeFileSync(path, listTemplate('First version'));
    const p = pool({ size: 1 });
    const a = await p.render({ templatePath: path, format: 'html', data: listData(1) });
    const b = await p.render({ templatePath: path, format: 'html', data: listData(1) });
    expect(p.stats().templateCache).toEqual({ hits: 1, misses: 1 });
    expect(b.output.equals(a.output)).toBe(true);

    writeFileSync(path, listTemplate('Second version'));
    const st = statSync(path);
    utimesSync(path, st.atime, new Date(st.mtimeMs + 5000)); // a rewrite in the same clock tick keeps the mtime
    const c = await p.render({ templatePath: path, format: 'html', data: listData(1) });
    expect(p.stats().templateCache).toEqual({ hits: 1, misses: 2 });
    expect(c.output.toString()).toContain('Second version');
    expect(c.output.toString()).not.toContain('First version');
  });

  it('answers TemplateRenderError with the engine’s message for templates and formats it cannot use', async () => {
    const broken = join(dir, 'broken.frx');
    const source = '<Report><ReportPage Name="P"><DataBand Name="D" Height="x"';
    writeFileSync(broken, source);
    let expected = '';
    try {
      loadFrx(source);
    } catch (e) {
      expect(e).toBeInstanceOf(TemplateError);
      expected = (e as Error).message;
    }
    expect(expected).not.toBe('');
    const p = pool({ size: 1 });
    const err = await p.render({ templatePath: broken, format: 'html', data: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemplateRenderError);
    expect((err as Error).message).toBe(expected);

    const missing = await p
      .render({ templatePath: join(dir, 'missing.frx'), format: 'html', data: {} })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(TemplateRenderError);
    expect((missing as Error).message).toBe('the template file cannot be read (ENOENT)');

    await expect(p.render({ templatePath: LIST, format: 'docx' as 'html', data: {} })).rejects.toThrow(
      TemplateRenderError,
    );
    await expect(p.render({ templatePath: '', format: 'html', data: {} })).rejects.toThrow(TypeError);
    // The worker is still fine.
    await expect(p.render({ templatePath: LIST, format: 'html', data: listData(1) })).resolves.toMatchObject({
      pages: 1,
    });
  });

  it('fails a job whose data cannot be sent to a worker, and carries on', async () => {
    const p = pool({ size: 1 });
    const err = await p
      .render({ templatePath: LIST, format: 'html', data: { rows: [{ id: () => 1 }] } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect((err as Error).message).toMatch(/cannot be sent to a worker/);
    await expect(p.render({ templatePath: LIST, format: 'html', data: listData(1) })).resolves.toMatchObject({
      pages: 1,
    });
  });

  it('close() rejects running and queued jobs and every later render', async () => {
    const p = pool({ size: 1, queueLimit: 2 });
    const running = p.render({ templatePath: LIST, format: 'html', data: listData(5000) }).catch((e: unknown) => e);
    const queued = p.render({ templatePath: LIST, format: 'html', data: listData(1) }).catch((e: unknown) => e);
    await waitFor(() => p.stats().busy === 1);
    await p.close();
    expect(await running).toBeInstanceOf(PoolClosedError);
    expect(await queued).toBeInstanceOf(PoolClosedError);
    await expect(p.render({ templatePath: LIST, format: 'html', data: {} })).rejects.toBeInstanceOf(PoolClosedError);
    await p.close(); // twice is fine
  });

  it('validates its options', () => {
    expect(() => createRenderPool({ size: 0 })).toThrow(RangeError);
    expect(() => createRenderPool({ size: 1.5 })).toThrow('size must be an integer ≥ 1');
    expect(() => createRenderPool({ queueLimit: -1 })).toThrow(RangeError);
    expect(() => createRenderPool({ timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createRenderPool({ maxMemoryMb: 8 })).toThrow('maxMemoryMb must be an integer ≥ 16');
    const p = pool({});
    expect(p.stats().size).toBeGreaterThanOrEqual(1);
  });
});
