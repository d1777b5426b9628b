// The render worker's template cache reads the files a template names beside it (map shapefiles,
// CSV files) only inside its resource folder, by real path: with the app's folder as that (the
// server), <app>/templates/x.frx may read <app>/Maps/usa1.shp as "..\Maps\usa1.shp"; a name above
// <app> or a symbolic link out of it is a template error, another kind of file is not read; a
// changed or newly added file loads the template again. Without a resource folder (the CLI's
// default) it is the template's own folder.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MapObjectModel } from '../../src/report/frx/model.js';
import { TemplateCache } from '../../src/srs/render-pool/template-cache.js';
import { baseTemplate, inheritedTemplate } from '../support/named-file-templates.js';
import { writeDbf, writeShp } from '../support/shapefile-writer.js';

const root = mkdtempSync(join(tmpdir(), 'render-pool-resources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const app = join(root, 'app');
mkdirSync(join(app, 'templates'), { recursive: true });
mkdirSync(join(app, 'Maps'), { recursive: true });
const shp = writeShp([
  {
    type: 5,
    parts: [
      [
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ],
    ],
  },
]);
const dbf = writeDbf([{ name: 'NAME', length: 10 }], [{ NAME: 'One' }]);
writeFileSync(join(app, 'Maps', 'usa1.shp'), shp);
writeFileSync(join(app, 'Maps', 'usa1.dbf'), dbf);
writeFileSync(join(root, 'outside.shp'), shp);
writeFileSync(join(app, 'Maps', 'secret.frx'), shp);
symlinkSync(join(root, 'outside.shp'), join(app, 'Maps', 'link.shp'));

let n = 0;
function template(shapefile: string): string {
  const path = join(app, 'templates', `t${++n}.frx`);
  writeFileSync(
    path,
    `<Report><ReportPage Name="P"><ReportTitleBand Name="T" Height="100">
      <MapObject Name="M" Width="100" Height="100">
        <MapLayer Name="L" Type="Polygon" Shapefile="${shapefile}"/>
      </MapObject>
    </ReportTitleBand></ReportPage></Report>`,
  );
  return path;
}

/** `resources`: the resource folder, or 'default' for none given. */
function load(cache: TemplateCache, path: string, resources: string = app) {
  const loaded = (resources === 'default' ? cache.get(path) : cache.get(path, resources)).template.loaded();
  const map = loaded.report.pages[0]?.reportTitle?.objects[0] as MapObjectModel;
  return { shapes: map.layers[0]?.shapes ?? [], warnings: loaded.warnings };
}

describe('TemplateCache resources', () => {
  it('reads a shapefile in the app folder, with its .dbf', () => {
    const { shapes, warnings } = load(new TemplateCache(), template('..\\Maps\\usa1.shp'));
    expect(warnings).toEqual([]);
    expect(shapes).toHaveLength(1);
    expect(shapes[0]?.data.get('NAME')).toBe('One');
  });

  it('refuses a file above the app folder or through a link out of it with a template error', () => {
    for (const name of ['..\\..\\outside.shp', '../Maps/link.shp', '../../app/Maps/link.shp', '../../nowhere.shp'])
      expect(() => load(new TemplateCache(), template(name)), name).toThrow(
        `the file "${name.replace(/\\/g, '/')}" is outside the folder this template may read files from`,
      );
  });

  it('reads no other kind of file, and no absolute path (each a warning)', () => {
    for (const name of ['..\\Maps\\secret.frx', '/etc/passwd.shp', join(app, 'Maps', 'usa1.shp')]) {
      const { shapes, warnings } = load(new TemplateCache(), template(name));
      expect(shapes, name).toEqual([]);
      expect(warnings.length, name).toBe(1);
    }
  });

  it('follows a link that stays inside the app folder', () => {
    symlinkSync(join(app, 'Maps', 'usa1.shp'), join(app, 'templates', 'inside.shp'));
    symlinkSync(join(app, 'Maps', 'usa1.dbf'), join(app, 'templates', 'inside.dbf'));
    const { shapes, warnings } = load(new TemplateCache(), template('inside.shp'));
    expect(warnings).toEqual([]);
    expect(shapes[0]?.data.get('NAME')).toBe('One');
  });

  it('without a resource folder, reads only inside the template’s own folder', () => {
    writeFileSync(join(app, 'templates', 'beside.shp'), shp);
    expect(load(new TemplateCache(), template('beside.shp'), 'default').shapes).toHaveLength(1);
    expect(() => load(new TemplateCache(), template('..\\Maps\\usa1.shp'), 'default')).toThrow(
      'the file "../Maps/usa1.shp" is outside the folder this template may read files from',
    );
  });

  it('loads the template again when a link is pointed out of the folder, and refuses it', () => {
    const cache = new TemplateCache();
    const link = join(app, 'Maps', 'moved.shp');
    symlinkSync(join(app, 'Maps', 'usa1.shp'), link);
    const path = template('../Maps/moved.shp');
    expect(load(cache, path).shapes).toHaveLength(1);
    rmSync(link);
    symlinkSync(join(root, 'outside.shp'), link);
    expect(cache.get(path, app).hit).toBe(false);
    expect(() => load(cache, path)).toThrow(/is outside the folder/);
  });

  it('loads the template again when a missing file appears', () => {
    const cache = new TemplateCache();
    const path = template('../Maps/later.shp');
    expect(load(cache, path).shapes).toEqual([]);
    writeFileSync(join(app, 'Maps', 'later.shp'), shp);
    expect(cache.get(path).hit).toBe(false);
    expect(load(cache, path).shapes).toHaveLength(1);
  });
});

describe('TemplateCache base and detail reports', () => {
  const outsideBase = join(root, 'outside-base.frx');
  writeFileSync(outsideBase, baseTemplate('secret of another folder'));
  mkdirSync(join(app, 'shared'), { recursive: true });
  writeFileSync(join(app, 'shared', 'base.frx'), baseTemplate('shared base'));
  symlinkSync(outsideBase, join(app, 'templates', 'link.frx'));
  symlinkSync(join(app, 'shared', 'base.frx'), join(app, 'templates', 'shared-link.frx'));

  const child = (base: string) => {
    const path = join(app, 'templates', `child${++n}.frx`);
    writeFileSync(path, inheritedTemplate(base));
    return path;
  };
  const text = (cache: TemplateCache, path: string) => {
    const title = cache.get(path, app).template.loaded().report.pages[0]?.reportTitle?.objects[0];
    return (title as { text?: string } | undefined)?.text;
  };

  it('refuses a base report that is a link out of the app folder', () => {
    expect(() => text(new TemplateCache(), child('link.frx'))).toThrow(
      'the report "link.frx" is outside the folder this template may read files from',
    );
  });

  it('reads a base report through a link that stays inside the app folder', () => {
    expect(text(new TemplateCache(), child('shared-link.frx'))).toBe('shared base');
  });

  it('refuses a detail report that is a link out of the app folder, and reads one inside', () => {
    const { template } = new TemplateCache().get(child('shared-link.frx'), app);
    expect(() => template.readDetail('link.frx')).toThrow(/"link.frx" is outside the folder/);
    expect(template.readDetail('shared-link.frx')?.toString()).toContain('shared base');
  });
});
