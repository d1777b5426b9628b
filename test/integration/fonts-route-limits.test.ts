// GET /fonts/ is public, and a face is compressed once: many requests for distinct faces at once
// are all answered at once with the faces' own files (not to be stored), and compressions are
// queued for at most 1 + DEFAULT_WEB_FONT_MAX_WAITING of them; a face left out is queued when it
// is asked again, and no face is ever compressed twice (the process's store counts its
// compressions). The faces are copies of one small font in a Settings:FontDirs directory. No
// database part: SQLite only.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webFontFileName, webFonts } from '../../src/report/index.js';
import { DEFAULT_WEB_FONT_MAX_WAITING, extraFaces } from '../../src/report/text/index.js';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';

const SMALL_TTF = fileURLToPath(new URL('../../node_modules/bwip-js/fonts/OCRA7.ttf', import.meta.url));
const FACES = 24;
const ACCEPTED = 1 + DEFAULT_WEB_FONT_MAX_WAITING;

interface Answer {
  url: string;
  status: number;
  cacheControl: string | null;
  magic: string;
}

describe('GET /fonts/ under many requests for distinct faces', () => {
  let db: TestDatabase;
  let inst: Instance;
  let urls: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'font-route-'));

  const get = async (url: string): Promise<Answer> => {
    const res = await fetch(inst.url + url);
    const body = Buffer.from(await res.arrayBuffer());
    return {
      url,
      status: res.status,
      cacheControl: res.headers.get('cache-control'),
      magic: body.subarray(0, 4).toString('latin1'),
    };
  };

  beforeAll(async () => {
    // Letters only: a face's served name keeps only letters of its family.
    for (let i = 0; i < FACES; i++)
      copyFileSync(SMALL_TTF, join(dir, `Probe${String.fromCharCode(97 + i)}${String.fromCharCode(97 + (i % 7))}.ttf`));
    db = await createTestDatabase('sqlite');
    inst = await startInstance(db, { Settings__FontDirs: dir });
    urls = extraFaces()
      .filter((f) => f.path.startsWith(dir))
      .map((f) => `/fonts/${webFontFileName(f)}`);
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Until the store has run every compression it queued (at most `ms`). */
  const compressionsDone = async (ms = 120_000): Promise<void> => {
    const until = Date.now() + ms;
    const busy = () => {
      const stats = webFonts.stats();
      return stats.waiting > 0 || stats.compressions > stats.kept;
    };
    while (busy() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  };

  it('answers every face at once, compresses a bounded number, the rest when asked again, and none twice', async () => {
    expect(new Set(urls).size).toBe(FACES);
    const before = webFonts.stats().compressions;
    // Held: no compression starts, so the queue is full by construction, and an answer that
    // waited for a compression would never come.
    const release = webFonts.hold();
    let first: Answer[];
    try {
      first = await Promise.all(urls.map(get));
      expect(webFonts.stats().waiting).toBe(ACCEPTED);
    } finally {
      release();
    }
    for (const a of first) {
      expect(a).toMatchObject({ status: 200, cacheControl: 'no-store', magic: '\u0000\u0001\u0000\u0000' });
    }
    await compressionsDone();
    expect(webFonts.stats().compressions - before).toBe(ACCEPTED);

    // Asked again: the compressed faces as WOFF2, immutable; the others as files again, queued now.
    const second = await Promise.all(urls.map(get));
    const woff2 = second.filter((a) => a.magic === 'wOF2');
    expect(woff2).toHaveLength(ACCEPTED);
    for (const a of woff2) expect(a.cacheControl).toBe('public, max-age=31536000, immutable');
    for (const a of second.filter((x) => x.magic !== 'wOF2')) expect(a.cacheControl).toBe('no-store');
    await compressionsDone();
    const third = await Promise.all(urls.map(get));
    expect(third.map((a) => a.magic)).toEqual(urls.map(() => 'wOF2'));
    expect(webFonts.stats().compressions - before).toBe(FACES);
  }, 180_000);
});
