// The files a served template names are read only inside its app's folder, by real path: an
// inherited report whose base is a symbolic link out of the app is a 422 template_error that
// shows nothing of the linked file; a link that stays inside the app is followed; a CSV file
// named above the app is refused the same way, one inside it is read.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { baseTemplate, csvTemplate, inheritedTemplate } from '../support/named-file-templates.js';
import { htmlText, startSrsFixture, type SrsFixture } from './srs-fixture.js';

const SECRET = 'secret-of-another-folder';

describe.each(testDatabaseKinds())('files a template names stay inside its app folder on %s', (kind) => {
  let f: SrsFixture;
  const outside = mkdtempSync(join(tmpdir(), 'pc-outside-'));
  const render = (template: string) => f.as(f.adminJwt, `/api/srs/1/${template}.frx.html?app_name=demo&order_id=1004`);

  beforeAll(async () => {
    f = await startSrsFixture(kind);
    const app = join(f.appsDir, 'demo');
    const templates = join(app, 'templates');
    writeFileSync(join(outside, 'base.frx'), baseTemplate(SECRET));
    writeFileSync(join(outside, 'people.csv'), `Name\n${SECRET}\n`);
    symlinkSync(join(outside, 'base.frx'), join(templates, 'link.frx'));
    mkdirSync(join(app, 'shared'));
    writeFileSync(join(app, 'shared', 'base.frx'), baseTemplate('shared base of the app'));
    writeFileSync(join(app, 'shared', 'people.csv'), 'Name\nAnn\nBob\n');
    symlinkSync(join(app, 'shared', 'base.frx'), join(templates, 'inside-link.frx'));
    writeFileSync(join(templates, 'child-out.frx'), inheritedTemplate('link.frx'));
    writeFileSync(join(templates, 'child-in.frx'), inheritedTemplate('inside-link.frx'));
    const aboveApp = join('..', '..', '..', outside.split('/').pop() ?? '', 'people.csv').replace(/\//g, '\\');
    writeFileSync(join(templates, 'csv-out.frx'), csvTemplate(aboveApp));
    writeFileSync(join(templates, 'csv-in.frx'), csvTemplate('..\\shared\\people.csv'));
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
    rmSync(outside, { recursive: true, force: true });
  });

  it('refuses a base report linked from outside the app with a template error', async () => {
    const r = await render('child-out');
    expect(r.status, r.text).toBe(422);
    expect(r.body.data.code).toBe('template_error');
    expect(r.body.message).toContain('the report "link.frx" is outside the folder this template may read files from');
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toContain(outside);
  });

  it('reads a base report linked from inside the app', async () => {
    const r = await render('child-in');
    expect(r.status, r.text).toBe(200);
    expect(htmlText(r.text)).toContain('shared base of the app');
  });

  it('refuses a CSV file above the app, and reads one inside it', async () => {
    const out = await render('csv-out');
    expect(out.status, out.text).toBe(422);
    expect(out.body.message).toMatch(/the file "[^"]*people\.csv" is outside the folder/);
    expect(out.text).not.toContain(SECRET);
    const inside = await render('csv-in');
    expect(inside.status, inside.text).toBe(200);
    expect(htmlText(inside.text).split('\n')).toEqual(expect.arrayContaining(['Ann', 'Bob']));
  });
});
