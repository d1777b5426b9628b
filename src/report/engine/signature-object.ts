// DigitalSignatureObject: the place a document is signed. FastReport prints only its fill and
// border (usually a line to sign on); signing is the PDF exporter's, which this one does not do.

import type { DigitalSignatureObjectModel } from '../frx/model.js';
import { itemHeader, type ObjectType } from './object-type.js';

export const signatureObject: ObjectType<DigitalSignatureObjectModel> = {
  item: (_e, o, rt) => ({ item: { kind: 'box', ...itemHeader(o, rt) }, canBreak: false }),
};
