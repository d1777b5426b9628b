// Writing .frx XML text: attribute escaping, FastReport-style numbers, and a small element
// builder with two-space indentation (as FastReport's designer writes files).

import { TemplateError } from '../errors.js';

/** Escapes text for a double-quoted XML attribute value. Tab, CR and LF are written as
 *  character references so attribute-value normalisation cannot turn them into spaces
 *  (FastReport writes CR/LF the same way). */
export function escapeXmlAttribute(value: string): string {
  return value.replace(/[&<>"\t\n\r]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\t':
        return '&#9;';
      case '\n':
        return '&#10;';
      default:
        return '&#13;';
    }
  });
}

// Characters XML 1.0 cannot carry at all (not even as references): C0 controls other than tab,
// LF and CR, lone surrogates, U+FFFE and U+FFFF.
const NOT_XML_CHAR = new RegExp(
  [
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.source,
    /[\ud800-\udbff](?![\udc00-\udfff])/.source,
    /(?<![\ud800-\udbff])[\udc00-\udfff]/.source,
  ].join('|'),
  'u',
);

/** True when `text` can be written into an XML document (after escaping). */
export function isXmlText(text: string): boolean {
  return !NOT_XML_CHAR.test(text);
}

/** A length in FastReport units (px at 96 dpi) or mm as FastReport writes it: at most two
 *  decimals, no trailing zeros, invariant culture. */
export function formatNumber(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

export type AttrValue = string | number | boolean | undefined;

/** One element to write: attributes in order (undefined ones are left out), then children. */
export interface XmlNode {
  name: string;
  attrs: [string, AttrValue][];
  children?: XmlNode[];
}

function attrText(element: string, name: string, v: string | number | boolean): string {
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (!isXmlText(v))
    throw new TemplateError(`${name} ${JSON.stringify(v)} holds characters an XML file cannot carry`, element);
  return escapeXmlAttribute(v);
}

/** Serialises nodes, one element per line, children indented by two spaces. */
export function writeXml(node: XmlNode, indent = ''): string {
  let open = `${indent}<${node.name}`;
  for (const [k, v] of node.attrs) if (v !== undefined) open += ` ${k}="${attrText(node.name, k, v)}"`;
  const children = node.children ?? [];
  if (children.length === 0) return `${open}/>`;
  const inner = children.map((c) => writeXml(c, `${indent}  `)).join('\n');
  return `${open}>\n${inner}\n${indent}</${node.name}>`;
}
