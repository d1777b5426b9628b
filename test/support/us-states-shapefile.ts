// A public-domain substitute for the "usa1.shp" FastReport's map demos name (not in its public
// repository): the 48 contiguous states and DC from the npm package us-atlas (ISC; the US Census
// Bureau's cartographic boundary files as TopoJSON, longitude/latitude), written as a real
// polygon shapefile with the .dbf columns the demos use, NAME and ABBREV.

import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { feature } from 'topojson-client';
import { writeDbf, writeShp, type ShapeRecord } from './shapefile-writer.js';

/** State FIPS code → USPS abbreviation, the lower 48 states and DC (Alaska 02, Hawaii 15 and the
 *  territories are left out, as the demos' map box, lon −125.5…−67, lat 19.9…49.4, shows). */
export const FIPS_TO_USPS: Readonly<Record<string, string>> = {
  '01': 'AL',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
};

/** Twice the signed area of a ring (x right, y up): positive when it winds counter-clockwise. */
const signedArea = (ring: [number, number][]): number => {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i] as [number, number];
    const [x2, y2] = ring[(i + 1) % ring.length] as [number, number];
    s += x1 * y2 - x2 * y1;
  }
  return s;
};

/** A shapefile ring: outer rings clockwise, holes counter-clockwise (the format's rule). */
const oriented = (ring: [number, number][], hole: boolean): [number, number][] =>
  signedArea(ring) < 0 === !hole ? ring : [...ring].reverse();

export interface UsState {
  name: string;
  abbrev: string;
  parts: [number, number][][];
}

/** The states, in FIPS order. */
export function usStates(): UsState[] {
  const require = createRequire(import.meta.url);
  const topology = require('us-atlas/states-10m.json') as { objects: { states: unknown } };
  const states: UsState[] = [];
  for (const f of feature(topology, topology.objects.states).features) {
    const abbrev = FIPS_TO_USPS[String(f.id)];
    if (!abbrev || !f.geometry) continue;
    const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    const parts = polygons.flatMap((rings) =>
      rings.map((r, i) =>
        oriented(
          r.map(([x, y]) => [x, y] as [number, number]),
          i > 0,
        ),
      ),
    );
    states.push({ name: String(f.properties.name), abbrev, parts });
  }
  return states.sort((a, b) => a.abbrev.localeCompare(b.abbrev));
}

/** Writes `usa1.shp` and `usa1.dbf` into the folder (created); returns the .shp path. */
export function writeUsStatesShapefile(dir: string, base = 'usa1'): string {
  const states = usStates();
  mkdirSync(dir, { recursive: true });
  const records: ShapeRecord[] = states.map((s) => ({ type: 5, parts: s.parts }));
  const shp = join(dir, `${base}.shp`);
  writeFileSync(shp, writeShp(records));
  writeFileSync(
    join(dir, `${base}.dbf`),
    writeDbf(
      [
        { name: 'NAME', length: 40 },
        { name: 'ABBREV', length: 2 },
      ],
      states.map((s) => ({ NAME: s.name, ABBREV: s.abbrev })),
    ),
  );
  return shp;
}
