// Picture bytes: the format (MIME type) and intrinsic size read from the file header. Only the
// header is looked at; nothing is decoded.

export interface ImageInfo {
  mime: string;
  width?: number;
  height?: number;
}

const u16be = (b: Uint8Array, i: number): number => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number): number => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u32be = (b: Uint8Array, i: number): number => u16be(b, i) * 65536 + u16be(b, i + 2);
const i32le = (b: Uint8Array, i: number): number => u16le(b, i) | (u16le(b, i + 2) << 16);

function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  let i = 2;
  for (let guard = 0; i + 9 < b.length && guard < 10_000; guard++) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = u16be(b, i + 2);
    // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    if (len < 2) return undefined;
    i += 2 + len;
  }
  return undefined;
}

/** Reads the format and size of an image from its first bytes. */
export function imageInfo(b: Uint8Array): ImageInfo {
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { mime: 'image/png', width: u32be(b, 16), height: u32be(b, 20) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    return { mime: 'image/jpeg', ...jpegSize(b) };
  }
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) {
    return { mime: 'image/gif', width: u16le(b, 6), height: u16le(b, 8) };
  }
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    return { mime: 'image/bmp', width: Math.abs(i32le(b, 18)), height: Math.abs(i32le(b, 22)) };
  }
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  ) {
    return { mime: 'image/webp' };
  }
  const head = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, Math.min(b.length, 512))).trimStart();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return { mime: 'image/svg+xml' };
  return { mime: '' };
}

/** Base64 (as .frx files and JSON data carry images) → bytes; undefined when it is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const t = text.replace(/\s+/g, '');
  if (t === '' || t.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(t)) return undefined;
  return new Uint8Array(Buffer.from(t, 'base64'));
}
