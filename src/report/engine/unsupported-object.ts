// An object this engine does not render (barcodes, charts, …; the loader warns): its box with
// its fill and border, marked with its FastReport class (the exporters draw a dashed frame when
// there is nothing else to see).

import type { UnsupportedObjectModel } from '../frx/model.js';
import { itemHeader, type ObjectType } from './object-type.js';

export const unsupportedObject: ObjectType<UnsupportedObjectModel> = {
  item(_e, o, rt) {
    return {
      item: {
        kind: 'box',
        ...itemHeader(o, rt),
        unsupported: o.className,
      },
      canBreak: false,
    };
  },
};
