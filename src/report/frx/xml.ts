// Safe XML reading for report templates: bytes (or text) → a small element tree.
//
// What makes it safe for templates from anywhere:
// - Size is checked before any parsing; gzip input (detected by its magic bytes) is inflated
//   with a cap on the inflated size, so a "zip bomb" stops at the cap.
// - A DOCTYPE is refused outright, so no entity can ever be declared: only the five predefined
//   entities and numeric character references exist (no XXE, no billion laughs).
// - Depth, element count and attribute value length are limited; the tree is built with an
//   explicit stack (no recursion over the input's depth), and parsing stops at the first
//   violation.
// Every refusal is a TemplateError naming the limit (and the line when there is one).

import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { TemplateError } from '../errors.js';

/** One XML element. `attrs` has no prototype, so any attribute name is safe as a key. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data (text and CDATA) directly inside this element. */
  text: string;
  /** 1-based line where the start tag is. */
  line: number;
}

export interface XmlLimits {
  /** Largest input accepted, in bytes, counted after gzip inflation. */
  maxInputBytes: number;
  /** Deepest element nesting accepted (the root element is depth 1). */
  maxDepth: number;
  /** Most elements accepted in one document. */
  maxElements: number;
  /** Longest attribute value accepted, in characters. */
  maxAttributeValueLength: number;
}

export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
  maxInputBytes: 20 * 1024 * 1024,
  maxDepth: 200,
  maxElements: 200_000,
  maxAttributeValueLength: 8 * 1024 * 1024,
});

/** Depth is capped here whatever the options say: later stages may walk the tree recursively. */
const HARD_MAX_DEPTH = 1000;

export interface XmlText {
  text: string;
  /** True when the input was gzip-compressed. */
  compressed: boolean;
  warnings: string[];
}

export interface XmlDocument {
  root: XmlElement;
  /** The encoding named by the XML declaration, if any. */
  declaredEncoding: string | undefined;
  warnings: string[];
}

export function resolveLimits(limits?: Partial<XmlLimits>): XmlLimits {
  const out: XmlLimits = { ...DEFAULT_XML_LIMITS };
  if (limits) {
    for (const key of Object.keys(DEFAULT_XML_LIMITS) as (keyof XmlLimits)[]) {
      const v = limits[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 1) {
        throw new TypeError(`XML limit ${key} must be a positive number`);
      }
      out[key] = Math.floor(v);
    }
  }
  out.maxDepth = Math.min(out.maxDepth, HARD_MAX_DEPTH);
  return out;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function tooLarge(size: number | string, limit: number): TemplateError {
  return new TemplateError(`input of ${size} bytes is larger than maxInputBytes (${limit})`, 'input');
}

/**
 * Turns the raw input into text: size check, gzip inflation (capped), BOM detection
 * (UTF-8, UTF-16 LE/BE), UTF-8 decoding. Invalid UTF-8 is replaced (with a warning) rather
 * than refused.
 */
export function readXmlText(input: Buffer | Uint8Array | string, limitsIn?: Partial<XmlLimits>): XmlText {
  const limits = resolveLimits(limitsIn);
  const warnings: string[] = [];
  if (typeof input === 'string') {
    // Cheap upper bound first, exact UTF-8 length only when it matters.
    if (input.length > limits.maxInputBytes) throw tooLarge(`at least ${input.length}`, limits.maxInputBytes);
    if (input.length * 3 > limits.maxInputBytes) {
      const size = Buffer.byteLength(input, 'utf8');
      if (size > limits.maxInputBytes) throw tooLarge(size, limits.maxInputBytes);
    }
    return { text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input, compressed: false, warnings };
  }
  if (!(input instanceof Uint8Array)) throw new TypeError('input must be a Buffer, Uint8Array or string');
  let bytes: Uint8Array = input;
  let compressed = false;
  if (isGzip(bytes)) {
    compressed = true;
    // The compressed size is checked too, so the inflater never even sees huge inputs.
    if (bytes.length > limits.maxInputBytes) throw tooLarge(bytes.length, limits.maxInputBytes);
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: limits.maxInputBytes });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw new TemplateError(`gzip input inflates to more than maxInputBytes (${limits.maxInputBytes})`, 'input');
      }
      throw new TemplateError(`gzip input is corrupt: ${(err as Error).message}`, 'input');
    }
  }
  if (bytes.length > limits.maxInputBytes) throw tooLarge(bytes.length, limits.maxInputBytes);
  return { text: decodeBytes(bytes, warnings), compressed, warnings };
}

function decodeBytes(bytes: Uint8Array, warnings: string[]): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  }
  const body =
    bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    warnings.push('The template is not valid UTF-8; invalid bytes were replaced by U+FFFD');
    return new TextDecoder('utf-8').decode(body);
  }
}

const CHUNK = 64 * 1024;

/** Parses XML text into an element tree under the given limits. */
export function parseXmlText(text: string, limitsIn?: Partial<XmlLimits>): XmlDocument {
  const limits = resolveLimits(limitsIn);
  const warnings: string[] = [];
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  let startLine = 1;

  parser.on('doctype', () => {
    throw new TemplateError('DTDs are not allowed', `line ${parser.line}`);
  });
  parser.on('error', (err: Error) => {
    throw new TemplateError(`malformed XML: ${cleanSaxesMessage(err.message)}`, `line ${parser.line}`);
  });
  parser.on('opentagstart', () => {
    elements++;
    if (elements > limits.maxElements) {
      throw new TemplateError(`more than maxElements (${limits.maxElements}) elements`, `line ${parser.line}`);
    }
    if (stack.length + 1 > limits.maxDepth) {
      throw new TemplateError(`elements nested deeper than maxDepth (${limits.maxDepth})`, `line ${parser.line}`);
    }
    startLine = parser.line;
  });
  parser.on('opentag', (tag) => {
    // saxes builds the attribute map with Object.create(null), so it is used as it is.
    let attrs = tag.attributes as Record<string, string>;
    if (Object.getPrototypeOf(attrs) !== null)
      attrs = Object.assign(Object.create(null) as Record<string, string>, attrs);
    for (const key in attrs) {
      if ((attrs[key] as string).length > limits.maxAttributeValueLength) {
        throw new TemplateError(
          `attribute ${tag.name.slice(0, 80)}/@${key.slice(0, 80)} is longer than maxAttributeValueLength ` +
            `(${limits.maxAttributeValueLength})`,
          `line ${startLine}`,
        );
      }
    }
    const el: XmlElement = { name: tag.name, attrs, children: [], text: '', line: startLine };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (t: string): void => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  for (let i = 0; i < text.length; i += CHUNK) parser.write(text.slice(i, i + CHUNK));
  parser.close();

  if (root === null) throw new TemplateError('malformed XML: the document has no root element', `line ${parser.line}`);
  const declaredEncoding = parser.xmlDecl.encoding;
  if (declaredEncoding !== undefined && !/^(utf-?8|utf-?16(le|be)?)$/i.test(declaredEncoding)) {
    warnings.push(`The XML declaration names encoding "${declaredEncoding}"; the template was read as Unicode`);
  }
  return { root, declaredEncoding, warnings };
}

/** readXmlText + parseXmlText. */
export function parseXml(input: Buffer | Uint8Array | string, limits?: Partial<XmlLimits>): XmlDocument {
  const read = readXmlText(input, limits);
  const doc = parseXmlText(read.text, limits);
  return { ...doc, warnings: [...read.warnings, ...doc.warnings] };
}

function cleanSaxesMessage(message: string): string {
  // saxes prefixes "fileName:line:column: "; the line is reported separately.
  // Messages can quote names from the input: keep them short.
  const m = message.replace(/^(?:[^:]*:)?\d+:\d+:\s*/, '').replace(/\.$/, '');
  return m.length > 200 ? `${m.slice(0, 200)}…` : m;
}
