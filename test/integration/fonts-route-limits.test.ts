// GET /fonts/ is public, and a face is compressed on its first request: many requests for
// distinct faces at once get the face compressed for at most 1 + DEFAULT_WEB_FONT_MAX_WAITING of
// them and 503 fonts_busy with Retry-After (and no year-long Cache-Control) for the rest, and no
// face is ever compressed twice (the process's store counts its compressions). The faces are
// copies of one small font in a Settings:FontDirs directory. No database part: SQLite only.
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
  retryAfter: string | null;
  cacheControl: string | null;
  code: string | undefined;
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
    const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(body.toString()) : null;
    return {
      url,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      cacheControl: res.headers.get('cache-control'),
      code: json?.data?.code,
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

  it('compresses a bounded number, refuses the rest with 503 and Retry-After, and none twice', async () => {
    expect(new Set(urls).size).toBe(FACES);
    const before = webFonts.stats().compressions;
    // Held: no compression starts, so the queue is full by construction, not by timing.
    const release = webFonts.hold();
    const answered: Answer[] = [];
    const requests = urls.map(async (url) => {
      const a = await get(url);
      answered.push(a);
      return a;
    });
    while (answered.length < FACES - ACCEPTED) await new Promise((r) => setTimeout(r, 20));
    expect(webFonts.stats().waiting).toBe(ACCEPTED);
    release();
    const first = await Promise.all(requests);

    const served = first.filter((a) => a.status === 200);
    const refused = first.filter((a) => a.status !== 200);
    expect(served).toHaveLength(ACCEPTED);
    for (const a of served) expect(a.magic).toBe('wOF2');
    expect(refused).toHaveLength(FACES - ACCEPTED);
    for (const a of refused) {
      expect(a).toMatchObject({ status: 503, code: 'fonts_busy', retryAfter: '5' });
      expect(a.cacheControl ?? '').not.toContain('immutable');
    }
    expect(webFonts.stats().compressions - before).toBe(ACCEPTED);

    // The refused faces come back and are served; every face asked again costs nothing more.
    const second = await Promise.all(refused.map((a) => get(a.url)));
    expect(second.map((a) => a.status)).toEqual(refused.map(() => 200));
    const third = await Promise.all(urls.map(get));
    expect(third.map((a) => a.status)).toEqual(urls.map(() => 200));
    expect(webFonts.stats().compressions - before).toBe(FACES);
  }, 180_000);
});
