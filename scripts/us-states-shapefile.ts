// Writes the substitute US states shapefile (usa1.shp + usa1.dbf, from the dev dependency
// us-atlas) into a folder, for rendering FastReport's map demos:
//
//   npx tsx scripts/us-states-shapefile.ts <dir>
//   npx tsx scripts/demo-count.ts --maps <dir> --only "USA"

import { writeUsStatesShapefile } from '../test/support/us-states-shapefile.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx scripts/us-states-shapefile.ts <dir>');
  process.exit(2);
}
console.log(writeUsStatesShapefile(dir));
