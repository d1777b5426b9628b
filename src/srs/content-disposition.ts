// `Content-Disposition: inline` with a file name (RFC 6266): a plain ASCII `filename` for every
// client, plus `filename*` (RFC 5987/8187, UTF-8 percent-encoded) when the name is not plain
// ASCII, so "Rechnung Müller.pdf" arrives intact in current browsers and safely elsewhere.

/** RFC 5987 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

function encodeExtValue(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The name with everything but printable ASCII (and `"`, `\`, `%`) replaced by `_`. */
function asciiFallback(name: string): string {
  return name.normalize('NFC').replace(/[^\x20-\x7e]|["\\%]/g, '_');
}

export function inlineDisposition(fileName: string): string {
  const name = fileName.normalize('NFC');
  const ascii = asciiFallback(name);
  const plain = `inline; filename="${ascii}"`;
  return ascii === name ? plain : `${plain}; filename*=UTF-8''${encodeExtValue(name)}`;
}
