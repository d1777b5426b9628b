// The registry of report object types: one entry per type of the model (the type checker asks
// for an entry when the model gains a type). A new type is a module implementing ObjectType
// (object-type.ts) and a line here; the exporters draw its prepared item kind through their own
// registries (export/html-items.ts, export/pdf/items.ts).

import type { ReportObjectModel } from '../frx/model.js';
import type { ObjectType, ObjectTypes } from './object-type.js';
import { barcodeObject } from './barcode-object.js';
import { chartObject } from './chart-object.js';
import { checkBoxObject } from './check-box-object.js';
import { gaugeObject } from './gauge-object.js';
import { lineObject } from './line-object.js';
import { mapObject } from './map-object.js';
import { matrixObject } from './matrix-object.js';
import { advMatrixObject } from './adv-matrix-object.js';
import { matrixButton } from './matrix-button.js';
import { pictureObject } from './picture-object.js';
import { polyObject } from './poly-object.js';
import { richObject } from './rich-object.js';
import { shapeObject } from './shape-object.js';
import { signatureObject } from './signature-object.js';
import { subreportObject } from './subreport-object.js';
import { tableObject } from './table-object.js';
import { textObject } from './text-object.js';
import { unsupportedObject } from './unsupported-object.js';
import { zipCodeObject } from './zip-code-object.js';

export const OBJECT_TYPES: ObjectTypes = {
  TextObject: textObject,
  PictureObject: pictureObject,
  LineObject: lineObject,
  ShapeObject: shapeObject,
  CheckBoxObject: checkBoxObject,
  TableObject: tableObject,
  MatrixObject: matrixObject,
  AdvMatrixObject: advMatrixObject,
  MatrixButton: matrixButton,
  SubreportObject: subreportObject,
  DigitalSignatureObject: signatureObject,
  BarcodeObject: barcodeObject,
  PolyLineObject: polyObject,
  PolygonObject: polyObject,
  ZipCodeObject: zipCodeObject,
  MapObject: mapObject,
  GaugeObject: gaugeObject,
  RichObject: richObject,
  MSChartObject: chartObject,
  SparklineObject: chartObject,
  Unsupported: unsupportedObject,
};

/** The registry entry of an object (sound: each entry is typed for its model type, and is looked
 *  up by the object's own type). */
export function objectType(o: ReportObjectModel): ObjectType<ReportObjectModel> {
  return OBJECT_TYPES[o.type] as ObjectType<ReportObjectModel>;
}
