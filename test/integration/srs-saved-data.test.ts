// The CLI's `starter --data` and `render --data` take a saved answer of
// GET /api/srs/{id}/data.json (the envelope) as its data, and refuse a saved failure answer with
// a clear message; a template name with a typo is a 404 that names the closest templates.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase } from '../support/databases.js';
import { runCli, said } from '../support/cli-child.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

describe('saved data.json answers and template typos', () => {
  let f: SrsFixture;
  let dir = '';
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    // The database does not matter here: the CLI reads files, the typo is found before any SQL.
    f = await startSrsFixture('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'pc-saved-data-'));
    const answer = await f.as(f.adminJwt, '/api/srs/1/data.json?app_name=demo&order_id=1004');
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['data', 'executed_at', 'message', 'requestID', 'success']);
    writeFileSync(file('envelope.json'), answer.text);
    writeFileSync(file('plain.json'), JSON.stringify(answer.body.data));
    const { executed_at: _, ...older } = answer.body; // an answer from before executed_at
    writeFileSync(file('older.json'), JSON.stringify(older));
    const failure = await f.as(f.adminJwt, '/api/srs/999/data.json?app_name=demo');
    expect(failure.status).toBe(404);
    writeFileSync(file('failure.json'), failure.text);
    // Data that merely has a `success` field is data.
    writeFileSync(file('lookalike.json'), JSON.stringify({ success: [{ n: 1 }], message: [{ m: 'x' }] }));
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({ DATA_DIR: f.db.dataDir });
  const cli = (args: string[]) => runCli(args, { env: env() });

  it('starter: an envelope gives the same template as its data, without the envelope fields', async () => {
    const plain = await cli(['starter', '--data', file('plain.json'), '--title', 'Invoice']);
    expect(plain.code, said(plain)).toBe(0);
    for (const name of ['envelope.json', 'older.json']) {
      const r = await cli(['starter', '--data', file(name), '--title', 'Invoice']);
      expect(r.code, said(r)).toBe(0);
      expect(r.stdout).toBe(plain.stdout);
    }
    expect(plain.stdout).toContain('invoice');
    expect(plain.stdout).not.toMatch(/requestID|executed_at/);
    const lookalike = await cli(['starter', '--data', file('lookalike.json')]);
    expect(lookalike.code, said(lookalike)).toBe(0);
    expect(lookalike.stdout).toContain('success');
  });

  it('render --data: an envelope renders as its data (html and the merged frx)', async () => {
    const template = join(f.appsDir, 'demo', 'templates', 'invoice.frx');
    for (const format of ['frx', 'html']) {
      const plain = await cli(['render', template, '--data', file('plain.json'), '--format', format]);
      expect(plain.code, said(plain)).toBe(0);
      const wrapped = await cli(['render', template, '--data', file('envelope.json'), '--format', format]);
      expect(wrapped.code, said(wrapped)).toBe(0);
      expect(wrapped.stdout).toBe(plain.stdout);
      expect(wrapped.stdout).not.toContain('requestID');
    }
  });

  it('refuses a saved failure answer with a clear message', async () => {
    const template = join(f.appsDir, 'demo', 'templates', 'invoice.frx');
    for (const args of [
      ['starter', '--data', file('failure.json')],
      ['render', template, '--data', file('failure.json')],
      ['render', template, '--data', file('failure.json'), '--format', 'frx'],
    ]) {
      const r = await cli(args);
      expect(r.code, said(r)).toBe(2);
      expect(r.stderr).toMatch(/failure answer of the API \("No SRS 999[^"]*"\), not report data/);
      expect(r.stderr).toContain('GET /api/srs/{id}/data.json');
    }
  });

  it('names the closest templates when a template name has a typo', async () => {
    for (const suffix of ['.frx.html', '.frx.pdf', '.frx']) {
      const r = await f.as(f.adminJwt, `/api/srs/1/invoce${suffix}?app_name=demo`);
      expect(r.status, r.text).toBe(404);
      expect(r.body.data.code).toBe('template_not_found');
      expect(r.body.message).toBe('No template invoce.frx; did you mean invoice?');
      expect(r.body.data.details[0]).toMatchObject({ field: 'templatename', rule: 'exists' });
    }
    const several = await f.as(f.adminJwt, '/api/srs/1/sales-by-custmer.frx.html?app_name=demo');
    expect(several.body.message).toContain('did you mean sales-by-customer?');
    const far = await f.as(f.adminJwt, '/api/srs/1/zzzz.frx.html?app_name=demo');
    expect(far.status).toBe(404);
    expect(far.body.message).toBe('No template zzzz.frx');
  });
});
