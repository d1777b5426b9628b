// The render pool's page limit (maxPages; Settings:RenderMaxPages in the server, --max-pages in
// the CLI): a longer report rejects with RenderPageLimitError instead of answering its first
// pages, and the worker renders the next job; a job's truncateAtPages asks for the first pages
// instead, and the outcome says whether they were cut.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/render.js';
import { createRenderPool, RenderPageLimitError } from '../../src/srs/render-pool/index.js';
import { listData, listTemplate, renderPoolsClosedAfterEach } from './render-pool-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'render-pool-pages-'));
const LIST = join(dir, 'list.frx');
writeFileSync(LIST, listTemplate('Pages'));
const pool = renderPoolsClosedAfterEach();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const data = listData(300);
const fullPages = renderReport({ template: listTemplate('Pages'), data: { json: data }, format: 'html' }).pages;

describe('render pool page limit', () => {
  it('rejects a report over maxPages with RenderPageLimitError, cuts it only when the job asks', async () => {
    expect(fullPages).toBeGreaterThan(3);
    const p = pool({ size: 1, maxPages: 2 });
    expect(p.maxPages).toBe(2);
    const err = await p.render({ templatePath: LIST, format: 'html', data }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderPageLimitError);
    expect((err as RenderPageLimitError).maxPages).toBe(2);
    expect((err as Error).message).toBe('the report has more than 2 pages and was not rendered');

    const first = await p.render({ templatePath: LIST, format: 'pdf', data, truncateAtPages: 1 });
    expect(first).toMatchObject({ pages: 1, truncated: true });
    // More than the pool allows is the pool's limit.
    const capped = await p.render({ templatePath: LIST, format: 'html', data, truncateAtPages: 50 });
    expect(capped).toMatchObject({ pages: 2, truncated: true });
    const fits = await p.render({ templatePath: LIST, format: 'html', data: listData(2), truncateAtPages: 2 });
    expect(fits).toMatchObject({ pages: 1, truncated: false });
  });

  it('renders a report under the default limit (10,000 pages) whole', async () => {
    const p = pool({ size: 1 });
    expect(p.maxPages).toBe(10_000);
    expect(await p.render({ templatePath: LIST, format: 'html', data })).toMatchObject({
      pages: fullPages,
      truncated: false,
    });
  });

  it('refuses a maxPages or truncateAtPages that is not a whole number ≥ 1', async () => {
    expect(() => createRenderPool({ maxPages: 0 })).toThrow('render pool: maxPages must be an integer ≥ 1 (got 0)');
    expect(() => createRenderPool({ maxPages: 2.5 })).toThrow(RangeError);
    const p = pool({ size: 1 });
    await expect(p.render({ templatePath: LIST, format: 'html', data, truncateAtPages: 0 })).rejects.toThrow(TypeError);
  });
});
