// `platform-core render` of a template from somewhere else: the files it names (a CSV file, a
// text file, a shapefile, an inherited report's base) are read only inside the template's own
// folder, by real path; `--resources DIR` widens that to DIR. Anything out of it exits 2 with a
// message naming the file as the template wrote it, and nothing of the file reaches the output.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseTemplate, csvTemplate, inheritedTemplate, mapTemplate } from '../../support/named-file-templates.js';
import { writeDbf, writeShp } from '../../support/shapefile-writer.js';
import { ensureBuilt, htmlTexts, runCli } from './cli.js';

const SECRET = 'secret-beside-the-download';
const OUTSIDE = 'is outside the folder this template may read files from';

describe('render reads the files a template names only inside its folder or --resources', () => {
  // home/
  //   data/people.csv, data/notes.txt, data/map.shp|dbf   (beside the download folder: the secret)
  //   elsewhere/base.frx
  //   downloads/          the untrusted templates; link.frx → ../elsewhere/base.frx
  //   downloads/own.csv   a file of its own
  let home = '';
  let downloads = '';
  const template = (name: string, text: string) => {
    const path = join(downloads, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(() => {
    ensureBuilt();
    home = mkdtempSync(join(tmpdir(), 'cli-resources-'));
    downloads = join(home, 'downloads');
    for (const d of ['data', 'elsewhere', 'downloads']) mkdirSync(join(home, d));
    writeFileSync(join(home, 'data', 'people.csv'), `Name\n${SECRET}\n`);
    writeFileSync(join(home, 'data', 'notes.txt'), `Name\n${SECRET}\n`);
    const square: [number, number][][] = [
      [
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ],
    ];
    writeFileSync(join(home, 'data', 'map.shp'), writeShp([{ type: 5, parts: square }]));
    writeFileSync(join(home, 'data', 'map.dbf'), writeDbf([{ name: 'NAME', length: 40 }], [{ NAME: SECRET }]));
    writeFileSync(join(home, 'elsewhere', 'base.frx'), baseTemplate(SECRET));
    symlinkSync(join(home, 'elsewhere', 'base.frx'), join(downloads, 'link.frx'));
    writeFileSync(join(downloads, 'own.csv'), 'Name\nAnn\n');
  });
  afterAll(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it.each([
    ['a CSV file', 'csv.frx', csvTemplate('..\\data\\people.csv'), 'the file "../data/people.csv"'],
    ['a text file', 'txt.frx', csvTemplate('../data/notes.txt'), 'the file "../data/notes.txt"'],
    ['a shapefile', 'map.frx', mapTemplate('..\\data\\map.shp'), 'the file "../data/map.shp"'],
    ['a base report linked from elsewhere', 'child.frx', inheritedTemplate('link.frx'), 'the report "link.frx"'],
  ])('refuses %s out of the template’s folder (exit 2)', async (_what, name, text, named) => {
    const res = await runCli(['render', template(name, text)]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`${named} ${OUTSIDE}`);
    expect(res.stdout).not.toContain(SECRET);
  });

  it('reads a file of the template’s own folder without --resources', async () => {
    const res = await runCli(['render', template('own.frx', csvTemplate('own.csv'))]);
    expect(res.code, res.stderr).toBe(0);
    expect(htmlTexts(res.stdout)).toEqual(['Ann']);
  });

  it('--resources DIR reads inside DIR, and still nothing out of it', async () => {
    const csv = await runCli([
      'render',
      template('csv2.frx', csvTemplate('..\\data\\people.csv')),
      '--resources',
      home,
    ]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(htmlTexts(csv.stdout)).toEqual([SECRET]);
    const base = await runCli(['render', template('child2.frx', inheritedTemplate('link.frx')), '--resources', home]);
    expect(base.code, base.stderr).toBe(0);
    expect(htmlTexts(base.stdout)).toEqual([SECRET]);
    const narrower = await runCli([
      'render',
      template('csv3.frx', csvTemplate('..\\data\\people.csv')),
      '--resources',
      downloads,
    ]);
    expect(narrower.code).toBe(2);
    expect(narrower.stderr).toContain(OUTSIDE);
  });

  it('--resources must be a folder', async () => {
    const own = template('own2.frx', csvTemplate('own.csv'));
    const missing = await runCli(['render', own, '--resources', join(home, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot use --resources .*nope: no such folder/);
    const file = await runCli(['render', own, '--resources', join(downloads, 'own.csv')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/cannot use --resources .*own\.csv: not a folder/);
  });
});
