// DigitalSignatureObject: the place a document is signed. FastReport prints its fill and border
// (usually a line to sign on); its PDF export puts an empty signature field there, which a reader
// offers to sign (this exporter does too; it does not sign).

import type { DigitalSignatureObjectModel } from '../frx/model.js';
import { itemHeader, type ObjectType } from './object-type.js';

export const signatureObject: ObjectType<DigitalSignatureObjectModel> = {
  item: (_e, o, rt) => ({ item: { kind: 'box', ...itemHeader(o, rt), signature: true }, canBreak: false }),
};
