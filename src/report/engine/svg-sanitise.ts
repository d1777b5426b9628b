// SVG pictures (SVGObject, or SVG bytes in a PictureObject) are rebuilt from an allow-list before
// any export sees them: only drawing elements and presentation attributes survive. No script, no
// event handler, no <foreignObject>, no style sheet, and no reference that leaves the document:
// links may only point at its own elements (#id) or be inline PNG/JPEG/GIF images. A DOCTYPE
// without an internal subset is dropped (SVG editors write one); one with entities is refused.

import { parseXml, type XmlElement } from '../frx/xml.js';
import { escapeXmlAttribute } from '../template/xml-text.js';

const ELEMENTS = new Set(
  (
    'svg g defs symbol use title desc path rect circle ellipse line polyline polygon text tspan ' +
    'textPath linearGradient radialGradient stop clipPath mask pattern image marker'
  ).split(' '),
);

// Presentation and geometry attributes. Anything else (on*, style sheets' url(), xml:base, …)
// is dropped.
const ATTRIBUTES = new Set(
  (
    'id x y x1 y1 x2 y2 cx cy r rx ry fx fy d points width height viewBox preserveAspectRatio ' +
    'transform gradientTransform gradientUnits patternUnits patternContentUnits patternTransform ' +
    'clipPathUnits maskUnits maskContentUnits offset spreadMethod fill fill-opacity fill-rule stroke ' +
    'stroke-width stroke-opacity stroke-linecap stroke-linejoin stroke-miterlimit stroke-dasharray ' +
    'stroke-dashoffset opacity stop-color stop-opacity clip-path clip-rule mask visibility display ' +
    'font-family font-size font-weight font-style text-anchor dominant-baseline letter-spacing ' +
    'word-spacing dx dy rotate textLength lengthAdjust startOffset markerWidth markerHeight refX ' +
    'refY orient markerUnits marker-start marker-mid marker-end color style href xlink:href xmlns ' +
    'xmlns:xlink version'
  ).split(' '),
);

// Properties a style attribute may set (the same presentation properties).
const STYLE_PROPERTIES = new Set([...ATTRIBUTES].filter((a) => /^[a-z-]+$/.test(a) && a !== 'style' && a !== 'href'));

const SAFE_IMAGE = /^data:image\/(?:png|jpeg|gif);base64,[A-Za-z0-9+/=\s]*$/;

/** A url(…) that is not a reference to an element of the document makes a value unsafe. */
const unsafeValue = (v: string): boolean => /url\s*\(\s*['"]?\s*(?!#)/i.test(v) || /expression\s*\(/i.test(v);

function cleanStyle(style: string): string {
  return style
    .split(';')
    .map((d) => d.trim())
    .filter((d) => {
      const [prop = '', ...rest] = d.split(':');
      return STYLE_PROPERTIES.has(prop.trim().toLowerCase()) && !unsafeValue(rest.join(':'));
    })
    .join(';');
}

function attributes(el: XmlElement): string {
  let out = '';
  for (const [name, value] of Object.entries(el.attrs)) {
    if (!ATTRIBUTES.has(name)) continue;
    let v = value;
    if (name === 'href' || name === 'xlink:href') {
      const ok = el.name === 'image' ? SAFE_IMAGE.test(v.trim()) : v.trim().startsWith('#');
      if (!ok) continue;
    } else if (name === 'style') v = cleanStyle(v);
    else if (unsafeValue(v)) continue;
    out += ` ${name}="${escapeXmlAttribute(v)}"`;
  }
  return out;
}

function write(el: XmlElement): string {
  if (!ELEMENTS.has(el.name)) return '';
  const inner = el.children.map(write).join('') + (el.text.trim() !== '' ? escapeXmlAttribute(el.text) : '');
  return `<${el.name}${attributes(el)}>${inner}</${el.name}>`;
}

/** The SVG rebuilt from the allow-list, or the reason it cannot be used. */
export function sanitiseSvg(bytes: Uint8Array): { svg: string } | { error: string } {
  let text = Buffer.from(bytes).toString('utf8');
  const doctype = /<!DOCTYPE[^>[]*(\[)?/i.exec(text);
  if (doctype?.[1]) return { error: 'its DOCTYPE declares entities' };
  if (doctype) text = text.replace(/<!DOCTYPE[^>]*>/i, '');
  let root: XmlElement;
  try {
    root = parseXml(text).root;
  } catch (e) {
    return { error: `it is not well-formed XML (${e instanceof Error ? e.message : String(e)})` };
  }
  if (root.name !== 'svg') return { error: 'its root element is not <svg>' };
  const svg = write(root).replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return { svg: svg.replace(/(<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*?) xmlns="[^"]*"/, '$1') };
}
