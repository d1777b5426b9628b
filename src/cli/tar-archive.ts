// The container of a backup file: a POSIX ustar archive (POSIX.1-2001 `pax` interchange format's
// base, the format `tar --format=ustar` writes), restricted to what a backup needs: regular
// files with short names, no links, no directories, no extended headers. Written and read here
// (no tar package: the subset is two small functions), and still a standard file: an operator
// can list and unpack a backup with `tar -tvf` / `tar -xf` and look into the databases with the
// sqlite3 shell.
//
// Each entry is a 512-byte header, then the file's bytes padded with zeros to a multiple of 512;
// the archive ends with two zero blocks. Header fields used (offsets in bytes): name 0 (100),
// mode 100 (8), uid 108 (8), gid 116 (8), size 124 (12, octal), mtime 136 (12, octal),
// checksum 148 (8: the sum of the header's bytes with this field read as spaces, octal),
// type flag 156 ('0' = regular file), magic 257 ("ustar\0"), version 263 ("00").
import { readSync } from 'node:fs';

export const TAR_BLOCK = 512;
/** The size field holds 11 octal digits: 8 GiB − 1 at most. */
export const TAR_MAX_FILE_SIZE = 8 ** 11 - 1;

export class TarFormatError extends Error {}

function writeOctal(header: Buffer, offset: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, '0')}\0`, offset, width, 'latin1');
}

function checksumOf(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

/** The header of a regular file entry (mode 0600, owner 0: the archive says nothing of its maker). */
export function tarHeader(name: string, size: number, mtime: Date): Buffer {
  if (!/^[A-Za-z0-9._-]{1,99}$/.test(name)) throw new Error(`tar entry name not supported: ${name}`);
  if (!Number.isInteger(size) || size < 0 || size > TAR_MAX_FILE_SIZE)
    throw new Error(`${name}: ${size} bytes is more than a ustar entry holds (8 GiB)`);
  const header = Buffer.alloc(TAR_BLOCK);
  header.write(name, 0, 100, 'latin1');
  writeOctal(header, 100, 8, 0o600);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header.write('0', 156, 1, 'latin1');
  header.write('ustar\0' + '00', 257, 8, 'latin1');
  header.write(`${checksumOf(header).toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  return header;
}

/** The zeros after `size` bytes of data up to the next block. */
export const tarPadding = (size: number): Buffer => Buffer.alloc((TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK);

/** What ends an archive: two zero blocks. */
export const TAR_END = Buffer.alloc(2 * TAR_BLOCK);

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's data starts in the archive. */
  offset: number;
}

function readOctal(header: Buffer, offset: number, width: number, what: string): number {
  const text = header.toString('latin1', offset, offset + width).replace(/[\0 ]+$/, '');
  if (!/^[0-7]{1,12}$/.test(text.trim())) throw new TarFormatError(`bad ${what} field`);
  return Number.parseInt(text.trim(), 8);
}

/**
 * The entries of the ustar archive open as `fd` (`fileSize` bytes), checking every header's
 * checksum and that every entry's data is there. Throws TarFormatError for anything else.
 */
export function readTarEntries(fd: number, fileSize: number): TarEntry[] {
  const entries: TarEntry[] = [];
  const header = Buffer.alloc(TAR_BLOCK);
  let offset = 0;
  for (;;) {
    if (offset + TAR_BLOCK > fileSize) throw new TarFormatError('the archive is truncated (no end marker)');
    readSync(fd, header, 0, TAR_BLOCK, offset);
    if (header.every((b) => b === 0)) return entries;
    if (header.toString('latin1', 257, 262) !== 'ustar') throw new TarFormatError('not a ustar archive');
    if (readOctal(header, 148, 8, 'checksum') !== checksumOf(header))
      throw new TarFormatError(`the header at byte ${offset} is damaged (checksum)`);
    const type = header.toString('latin1', 156, 157);
    const name = header.toString('latin1', 0, 100).replace(/\0.*$/s, '');
    if (type !== '0' && type !== '\0') throw new TarFormatError(`${name}: not a regular file (type ${type})`);
    const size = readOctal(header, 124, 12, 'size');
    const data = offset + TAR_BLOCK;
    if (data + size > fileSize) throw new TarFormatError(`${name}: the archive is truncated`);
    entries.push({ name, size, offset: data });
    offset = data + size + tarPadding(size).length;
  }
}
