import { writeFileSync } from 'node:fs';
import { renderReport } from './src/report/index.js';
import { mirrorFile } from './test/report/engine/fpx.js';
import { NWIND_TEXT } from './test/report/engine/helpers.js';
const t0 = Date.now();
const r = await renderReport({ template: mirrorFile('Demos/Reports/Unicode.frx'), data: { datasetXml: NWIND_TEXT }, format: 'pdf' });
writeFileSync('/tmp/bc/Unicode.pdf', r.output as Buffer);
console.log(r.warnings, r.prepared.pages.length, Date.now() - t0, 'ms', (r.output as Buffer).length);
