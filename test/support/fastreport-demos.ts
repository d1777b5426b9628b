// FastReport's demo reports and prepared reports, copied into test/fixtures/fastreport from
// FastReport's public repository (provenance and licence: that folder's NOTICE.md and LICENSE).
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The FastReport commit the fixtures were copied from. */
export const FASTREPORT_COMMIT = '1fd45174a0cb9c7abeee8010f72f470426e37ac9';

/** test/fixtures/fastreport/, with a trailing slash. */
export const FASTREPORT_DIR = fileURLToPath(new URL('../fixtures/fastreport/', import.meta.url));

/** FastReport's Demos/Reports (every demo .frx, nwind.xml, reports.xml), with a trailing slash. */
export const DEMO_REPORTS_DIR = `${FASTREPORT_DIR}Reports/`;
export const DEMO_REPORTS_URL = pathToFileURL(DEMO_REPORTS_DIR);

/** A file of test/fixtures/fastreport: `Reports/<demo>.frx`, `AvaloniaViewer/<name>.fpx`. */
export function demoFile(relativePath: string): Buffer {
  return readFileSync(FASTREPORT_DIR + relativePath);
}

/** A demo of Reports/ by file name (`Barcode.frx`). */
export function demoReport(name: string): Buffer {
  return readFileSync(DEMO_REPORTS_DIR + name);
}

/**
 * The demos the template-wide tests (loading, formats, expressions, XML edits, the render pool)
 * iterate: a cross-section of bands, groups, matrices, tables, subreports and shapes that runs in
 * a few seconds. The other demos are covered by the engine's demo tests (test/report/engine).
 */
export const CORE_DEMOS: readonly string[] = [
  'CheckBox.frx',
  'Complete upto N Rows.frx',
  'Complex (Master-detail + Group).frx',
  'Databand Columns, Row Numbers.frx',
  'Double Pass, Total Pages.frx',
  'Duplicate Values.frx',
  'Groups.frx',
  'Hierarchic List.frx',
  'Keep Together.frx',
  'Labels.frx',
  'Lines and Shapes.frx',
  'Master-Detail.frx',
  'Matrix With Columns Only.frx',
  'Matrix.frx',
  'Objects Inside The Matrix.frx',
  'Odd-Even Rows.frx',
  'Purchase Order.frx',
  'Repeat Headers.frx',
  'Simple List.frx',
  'Simple Matrix.frx',
  'Start New Page, Reset Page Numbers.frx',
  'Subreport.frx',
  'Table.frx',
  'Text.frx',
  'Two Row Dimensions.frx',
];
