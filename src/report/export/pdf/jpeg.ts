// What a PDF needs to carry a JPEG file as it is (DCTDecode): size, components and whether an
// Adobe CMYK file stores inverted values. Read here rather than by pdfkit's parser, which throws
// strings and accepts frames a PDF cannot use (e.g. 2 components, zero height).

export class JpegError extends Error {}

export interface JpegInfo {
  width: number;
  height: number;
  /** 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK. */
  components: 1 | 3 | 4;
  /** An Adobe APP14 marker: CMYK samples are stored inverted. */
  adobe: boolean;
}

export function isJpeg(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

/** Start-of-frame markers (baseline, extended, progressive, lossless; Huffman or arithmetic). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function readJpegInfo(b: Uint8Array): JpegInfo {
  if (!isJpeg(b)) throw new JpegError('not a JPEG file');
  let pos = 2;
  let adobe = false;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) throw new JpegError('JPEG marker expected');
    const marker = b[pos + 1] ?? 0;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image / start of scan before a frame
    const len = ((b[pos + 2] ?? 0) << 8) | (b[pos + 3] ?? 0);
    if (len < 2 || pos + 2 + len > b.length) throw new JpegError('JPEG segment runs past the end of the file');
    const seg = pos + 4;
    if (marker === 0xee && len >= 7 && String.fromCharCode(...b.subarray(seg, seg + 5)) === 'Adobe') adobe = true;
    if (SOF.has(marker)) {
      if (len < 8) throw new JpegError('JPEG frame header is too short');
      const precision = b[seg] ?? 0;
      const height = ((b[seg + 1] ?? 0) << 8) | (b[seg + 2] ?? 0);
      const width = ((b[seg + 3] ?? 0) << 8) | (b[seg + 4] ?? 0);
      const components = b[seg + 5] ?? 0;
      if (precision !== 8) throw new JpegError(`JPEG with ${precision}-bit samples cannot go into a PDF`);
      if (width === 0 || height === 0) throw new JpegError('JPEG has no size in its frame header');
      if (components !== 1 && components !== 3 && components !== 4)
        throw new JpegError(`JPEG with ${components} components is not supported`);
      return { width, height, components, adobe };
    }
    pos += 2 + len;
  }
  throw new JpegError('JPEG has no frame header');
}
