// The rows a matrix (Matrix and AdvMatrix alike) reads: all rows of its data source that pass
// its Filter. The cursor is left walking them; the caller restores its rows and position after.

import type { DataSourceCursor, Row } from '../../data/index.js';
import type { EngineContext } from '../context.js';

/** The data source's rows for one print, filtered by the owner's Filter and set as the cursor's
 *  rows; [] without a cursor. */
export function filteredSourceRows(
  e: EngineContext,
  o: { name: string; filter: string },
  cursor: DataSourceCursor | undefined,
): readonly Row[] {
  if (!cursor) return [];
  let dataRows = cursor.allRows();
  cursor.setRows(dataRows);
  if (o.filter.trim() !== '') {
    dataRows = dataRows.filter((_, i) => {
      e.limits.visitRow();
      cursor.position = i;
      return e.exprs.condition(o, 'filter', o.filter, `${o.name}.Filter`) !== false;
    });
    cursor.setRows(dataRows);
  }
  return dataRows;
}
