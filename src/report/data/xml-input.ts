// Bytes → text for XML data files, with the size limit applied before anything is decoded.

import { TextDecoder } from 'node:util';
import { TemplateError } from '../errors.js';

const DECL_ENCODING_RE = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

/** Decodes an XML document: BOM first (UTF-8, UTF-16 LE/BE), then the declaration's encoding,
 *  else UTF-8. Invalid bytes for the encoding are an error, not replacement characters. */
export function decodeXml(input: Buffer | Uint8Array | string, maxBytes: number, where: string): string {
  if (typeof input === 'string') {
    if (input.length > maxBytes) throw tooLarge(input.length, maxBytes, where);
    return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  }
  if (input.byteLength > maxBytes) throw tooLarge(input.byteLength, maxBytes, where);
  let bytes = input;
  let encoding = 'utf-8';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf-16le';
    bytes = bytes.subarray(2);
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    encoding = 'utf-16be';
    bytes = bytes.subarray(2);
  } else {
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 200)).toString('latin1');
    const declared = DECL_ENCODING_RE.exec(head)?.[1]?.toLowerCase();
    // A declaration that says UTF-16 without a BOM is read as UTF-16LE, as .NET does.
    if (declared !== undefined && declared !== 'utf-8' && declared !== 'utf8')
      encoding = declared === 'utf-16' ? 'utf-16le' : declared;
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new TemplateError(`unsupported XML encoding "${encoding}"`, where);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new TemplateError(`the file is not valid ${encoding} text`, where);
  }
}

function tooLarge(size: number, max: number, where: string): TemplateError {
  return new TemplateError(`data is too large (${size} bytes; the limit is ${max})`, where);
}
