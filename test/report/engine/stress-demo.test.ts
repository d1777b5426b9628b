// FastReport's Stress-Test (1000x1000) demo at its full size, through `platform-core render` at the
// default render limits (Settings:RenderMemoryMb, 512 MB of heap for the render worker): its
// ManualBuild handler adds a million-cell matrix (1002 × 1002 with the totals), which prints on
// hundreds of pages. The demo count needs it to exit 0, and this is the test that it does within
// the limit a server applies. The values: the diagonal 1…1000, so the grand total in the last
// page's corner is 1 + 2 + … + 1000 = 500500.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';
import { pageCount, POPPLER_AVAILABLE, runTool } from '../../support/poppler.js';
import { ensureBuilt, runCli } from '../export/cli.js';
import { NWIND_PATH } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'stress-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Stress-Test (1000x1000) at full size', () => {
  it('renders its million-cell matrix to PDF at the default limits, the grand total on the last page', async () => {
    ensureBuilt();
    const template = `${DEMO_REPORTS_DIR}Stress-Test (1000x1000).frx`;
    const out = join(dir, 'stress.pdf');
    // No limit flags: the defaults of the settings, as a server render gets them.
    const r = await runCli(['render', template, '--data', NWIND_PATH, '--format', 'pdf', '--out', out], 240_000);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (!POPPLER_AVAILABLE) return;
    const pages = pageCount(out);
    // 1002 rows fill dozens of pages down, 1002 columns a dozen parts across.
    expect(pages).toBeGreaterThan(100);
    const last = runTool('pdftotext', ['-f', String(pages), '-l', String(pages), out, '-']).stdout.toString('utf8');
    expect(last.split(/\s+/)).toContain(String((1000 * 1001) / 2));
  }, 300_000);
});
