// SubreportObject: a placeholder for another report page's bands, which subreports.ts prints
// (inside the band or after it). The object itself prints nothing.

import type { SubreportObjectModel } from '../frx/model.js';
import type { ObjectType } from './object-type.js';

export const subreportObject: ObjectType<SubreportObjectModel> = {
  item: () => [],
};
