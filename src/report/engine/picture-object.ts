// PictureObject (FastReport's PictureObject.GetData): the image from a data column, an
// expression or the template; never from a file or URL.

import type { PictureObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { decodeBase64, imageInfo } from './image.js';
import { columnValue, itemHeader, type ObjectType } from './object-type.js';
import type { RtObject } from './runtime.js';
import { sanitiseSvg } from './svg-sanitise.js';

// A template's own SVG is rebuilt once per run, not once per print.
const cleanTemplateSvg = new WeakMap<PictureObjectModel, Uint8Array | null>();

/** SVG bytes rebuilt from the allow-list (svg-sanitise.ts); null, with a warning, when unusable. */
function safeSvg(e: EngineContext, o: PictureObjectModel, bytes: Uint8Array, fromTemplate: boolean): Uint8Array | null {
  const cached = fromTemplate ? cleanTemplateSvg.get(o) : undefined;
  if (cached !== undefined) return cached;
  const r = sanitiseSvg(bytes);
  const out = 'svg' in r ? new Uint8Array(Buffer.from(r.svg, 'utf8')) : null;
  if ('error' in r) e.warnings.add(`${o.name}: the SVG picture is left out: ${r.error}`);
  if (fromTemplate) cleanTemplateSvg.set(o, out);
  return out;
}

function pictureBytes(e: EngineContext, o: PictureObjectModel): Uint8Array | null {
  let v: unknown = null;
  if (o.dataColumn.trim() !== '') v = columnValue(e, o.dataColumn, `${o.name}.DataColumn`);
  else if (o.imageSourceExpression.trim() !== '')
    v = e.exprs.calc(o, 'image', o.imageSourceExpression, `${o.name}.ImageSourceExpression`).value;
  else if (o.image !== '') v = o.image;
  else if (o.imageLocation !== '') {
    e.warnings.add(
      `${o.name}: ImageLocation "${o.imageLocation.slice(0, 80)}" is not loaded (no files or URLs are read)`,
    );
    return null;
  }
  if (v instanceof Uint8Array) return v.length > 0 ? v : null;
  if (typeof v === 'string' && v !== '') {
    const bytes = decodeBase64(v.startsWith('data:') ? v.slice(v.indexOf(',') + 1) : v);
    if (bytes) return bytes;
    e.warnings.add(`${o.name}: the picture value is not image data (file names and URLs are not loaded)`);
  }
  return null;
}

export const pictureObject: ObjectType<PictureObjectModel> = {
  getData(e: EngineContext, o: PictureObjectModel, rt: RtObject): void {
    rt.bytes = pictureBytes(e, o);
  },
  item(e, o, rt) {
    let bytes = rt.bytes ?? null;
    const info = bytes ? imageInfo(bytes) : { mime: '' };
    if (bytes && info.mime === 'image/svg+xml') {
      const fromTemplate = o.dataColumn.trim() === '' && o.imageSourceExpression.trim() === '';
      bytes = safeSvg(e, o, bytes, fromTemplate);
    }
    return {
      item: {
        kind: 'picture',
        ...itemHeader(o, rt),
        bytes,
        mime: info.mime,
        sizeMode: o.sizeMode,
        padding: o.padding,
        angle: o.angle,
        transparency: o.transparency,
        grayscale: o.grayscale,
        ...(info.width !== undefined ? { imageWidth: info.width } : {}),
        ...(info.height !== undefined ? { imageHeight: info.height } : {}),
      },
      canBreak: false,
    };
  },
};
