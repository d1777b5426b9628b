// The render worker's template cache reads the files a template names beside it (map shapefiles,
// CSV files) only inside the template's app folder: <app>/templates/x.frx may read
// <app>/Maps/usa1.shp as "..\Maps\usa1.shp", nothing above <app>, nothing through a symbolic link
// out of it, no other kind of file; a changed or newly added file loads the template again.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MapObjectModel } from '../../src/report/frx/model.js';
import { TemplateCache } from '../../src/srs/render-pool/template-cache.js';
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

function load(cache: TemplateCache, path: string) {
  const loaded = cache.get(path).template.loaded();
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

  it('reads nothing above the app folder, through a link out of it, or of another kind', () => {
    for (const name of ['..\\..\\outside.shp', '../Maps/link.shp', '..\\Maps\\secret.frx', '/etc/passwd.shp']) {
      const { shapes, warnings } = load(new TemplateCache(), template(name));
      expect(shapes, name).toEqual([]);
      expect(warnings.length, name).toBe(1);
    }
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
