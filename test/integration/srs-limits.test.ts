// The limits of a report run (on SQLite and PostgreSQL): the statement timeout (the statement is
// stopped at the limit and the server keeps answering meanwhile), the row limit,
// the render time limit and a full render queue (503 + Retry-After), and that the service
// recovers from each; definitions reloaded when their file changes and refused with the file
// and line when invalid; Content-Disposition for non-ASCII template names.
import { copyFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderWorkerPool } from '../../src/srs/render-pool/index.js';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

const BIG_FRX = `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Big">
  <ReportPage Name="Page1">
    <DataBand Name="Rows" Width="718.2" Height="18.9" DataSource="rows">
      <TextObject Name="I" Width="100" Height="18.9" Text="[JSON.item.rows.item.i]"/>
      <TextObject Name="T" Left="100" Width="300" Height="18.9" Text="[JSON.item.rows.item.t]"/>
      <TextObject Name="T2" Left="400" Width="80" Height="18.9" Text="[JSON.item.rows.item.i * 2]"/>
      <TextObject Name="T3" Left="480" Width="80" Height="18.9" Text="[JSON.item.rows.item.i * 3]"/>
      <TextObject Name="T4" Left="560" Width="80" Height="18.9" Text="[JSON.item.rows.item.i * 4]"/>
      <TextObject Name="T5" Left="640" Width="78" Height="18.9" Text="[JSON.item.rows.item.t] [Row#]"/>
    </DataBand>
  </ReportPage>
</Report>`;

/** Seconds since the epoch, far enough ahead that a rewrite always changes the mtime. */
let clock = Math.floor(Date.now() / 1000) + 1000;

describe.each(testDatabaseKinds())('SRS limits on %s', (kind) => {
  let f: SrsFixture;
  const srsDir = () => join(f.appsDir, 'demo', 'srs');
  const writeSrs = (file: string, xml: string) => {
    const path = join(srsDir(), file);
    writeFileSync(path, xml);
    utimesSync(path, clock, ++clock);
  };

  beforeAll(async () => {
    f = await startSrsFixture(kind, {
      // Long enough that a 40,000-row statement in a freshly started SQLite command process on a
      // busy machine stays under it (the render test below), far below the slow statement's run.
      Settings__SrsStatementTimeoutSeconds: '1',
      Settings__SrsMaxRows: '50000',
      Settings__RenderTimeoutSeconds: '0.5',
      Settings__RenderQueueLimit: '0',
    });
    writeSrs(
      '94-slow.xml',
      `<srs label="Slow"><def>
      <itm model="command" name="slow">WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c ` +
        `WHERE x &lt; 30000000) SELECT COUNT(*) AS n FROM c</itm>
    </def></srs>`,
    );
    writeSrs(
      '95-rows.xml',
      `<srs label="Rows"><def>
      <itm model="param" name="count" type="int">10</itm>
      <itm model="command" name="rows">WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c ` +
        `WHERE i &lt; @count) SELECT i, 'row ' || i AS t FROM c</itm>
    </def></srs>`,
    );
    writeFileSync(join(f.appsDir, 'demo', 'templates', 'big.frx'), BIG_FRX);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it(
    'a statement over the statement timeout is stopped at the limit with a clear message, the server answers ' +
      'meanwhile, the next request works',
    async () => {
      // Warm up: on SQLite the command processes are started.
      expect((await f.as(f.adminJwt, '/api/srs/95/data.json?app_name=demo&count=1')).status).toBe(200);
      const started = performance.now();
      // The statement alone runs for several seconds (30 million steps of a recursive CTE).
      const slow = f.as(f.adminJwt, '/api/srs/94/data.json?app_name=demo');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const pingStarted = performance.now();
      const ping = await f.as(null, '/api/core/system/ping');
      const pingMs = performance.now() - pingStarted;
      expect(ping.status).toBe(200);
      // Before SQLite commands ran in processes of their own, this waited for the whole statement.
      expect(pingMs).toBeLessThan(300);
      const r = await slow;
      const tookMs = performance.now() - started;
      expect(r.status, r.text).toBe(422);
      expect(r.body.data.code).toBe('command_failed');
      expect(r.body.message).toBe(
        'Command "slow" ran longer than the statement timeout (1 s, Settings:SrsStatementTimeoutSeconds)',
      );
      // Stopped at the limit, not when the statement would have ended.
      expect(tookMs).toBeLessThan(3000);
      const next = await f.as(f.adminJwt, '/api/srs/95/data.json?app_name=demo&count=3');
      expect(next.status).toBe(200);
      expect(next.body.data.rows).toEqual([
        { i: 1, t: 'row 1' },
        { i: 2, t: 'row 2' },
        { i: 3, t: 'row 3' },
      ]);
    },
  );

  it('a command returning more rows than Settings:SrsMaxRows fails', async () => {
    const r = await f.as(f.adminJwt, '/api/srs/95/data.json?app_name=demo&count=50001');
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Command "rows" returned more than 50000 rows (Settings:SrsMaxRows)');
  });

  it(
    'a render over its time limit is stopped (422 render_timeout), a full queue answers 503 with Retry-After, ' +
      'and the pool recovers',
    async () => {
      // Warm up: the worker is started and a small report renders.
      const warm = await f.bytes(f.adminJwt, '/api/srs/95/big.frx.pdf?app_name=demo&count=20');
      expect(warm.status).toBe(200);
      // The slow render is held in the pool's queue until the busy request has been refused, so the
      // pool (one worker, no queue) is full by construction. Sending the second request some
      // milliseconds after the first left it to chance: both first run their SQL, and on a busy
      // machine the second could reach the pool first (or after the first had timed out), take
      // the worker and answer 422.
      const pool = f.inst.services.srs.pool;
      expect(pool).toBeInstanceOf(RenderWorkerPool);
      const release = (pool as RenderWorkerPool).hold();
      // Six texts a row: seconds of work at any engine speed (with two texts a row, 40,000 rows
      // once finished inside the 0.5 s limit on Node 24). More rows would risk the 1 s statement
      // timeout instead.
      const slow = f.bytes(f.adminJwt, '/api/srs/95/big.frx.pdf?app_name=demo&count=40000');
      try {
        await expect.poll(() => pool.stats().queued, { interval: 10, timeout: 30_000 }).toBe(1);
        // One worker, no queue: while the slow render waits or runs, another one is refused at once.
        const busy = await f.as(f.adminJwt, '/api/srs/95/big.frx.html?app_name=demo&count=5');
        expect(busy.status, busy.text.slice(0, 200)).toBe(503);
        expect(busy.body.data.code).toBe('render_busy');
        expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } finally {
        release();
      }
      const timedOut = await slow;
      expect(timedOut.status, timedOut.body.toString().slice(0, 200)).toBe(422);
      const body = JSON.parse(timedOut.body.toString()) as { message: string; data: { code: string } };
      expect(body.data.code).toBe('render_timeout');
      expect(body.message).toContain('longer than 0.5 s');
      const after = await f.as(f.adminJwt, '/api/srs/95/big.frx.html?app_name=demo&count=5');
      expect(after.status).toBe(200);
      expect(after.text).toContain('row 5');
    },
  );

  it('a definition is reloaded when its file changes', async () => {
    writeSrs('96-reload.xml', '<srs label="First"><def><itm model="command" name="a">SELECT 1 AS a</itm></def></srs>');
    expect((await f.as(f.adminJwt, '/api/srs/96?app_name=demo')).body.data.label).toBe('First');
    expect((await f.as(f.adminJwt, '/api/srs/96?app_name=demo')).body.data.label).toBe('First');
    writeSrs('96-reload.xml', '<srs label="Second"><def><itm model="command" name="b">SELECT 2 AS b</itm></def></srs>');
    const second = await f.as(f.adminJwt, '/api/srs/96/data.json?app_name=demo');
    expect(second.body.data).toEqual({ b: [{ b: 2 }] });
  });

  it.each([
    ['<srs label="x"><def>\n<itm model="command" name="a">SELECT 1\n</def></srs>', /line 3: malformed XML/],
    [
      '<?xml version="1.0"?>\n<!DOCTYPE srs [<!ENTITY x "boom">]>\n<srs><def><itm model="command" ' +
        'name="a">&x;</itm></def></srs>',
      /line 2: DTDs are not allowed/,
    ],
    ['<report><def/></report>', /line 1: the root element must be <srs>, not <report>/],
    [
      '<srs>\n<def>\n<itm model="param" name="p" type="money"/>\n<itm model="command" name="a">SELECT ' +
        '1</itm></def></srs>',
      /line 3: param "p": type "money" is not one of string, int, decimal, bool, date/,
    ],
    [
      '<srs><def>\n<itm model="param" name="p" type="int">ten</itm>\n<itm model="command" name="a">SELECT ' +
        '1</itm></def></srs>',
      /line 2: param "p": default "ten" is not an integer/,
    ],
    [
      '<srs><def>\n<itm model="command" name="a">SELECT 1</itm>\n<itm model="command" name="A">SELECT ' +
        '2</itm></def></srs>',
      /line 3: command "A" is defined twice \(also on line 2\)/,
    ],
    [
      '<srs><def>\n<itm model="param" name="order_id"/>\n\n<itm model="command" name="a">SELECT * FROM t ' +
        'WHERE id = @order_idd</itm></def></srs>',
      /line 4: command "a" uses @order_idd, which is not a declared param/,
    ],
    [
      '<srs><def>\n<itm model="command" name="a" opts="dtsingle,cached">SELECT 1</itm></def></srs>',
      /line 2: command "a": unknown opt "cached"/,
    ],
    [
      '<srs><def>\n<itm model="command" name="a" opts="required">SELECT 1</itm></def></srs>',
      /line 2: command "a": opt "required" needs "dtsingle"/,
    ],
    [
      '<srs><def>\n<itm model="command" name="1st">SELECT 1</itm></def></srs>',
      /line 2: command name "1st" must be a letter/,
    ],
    [
      '<srs><def>\n<itm model="param" name="ptoken"/><itm model="command" name="a">SELECT 1</itm></def></srs>',
      /line 2: param name "ptoken" is reserved/,
    ],
    [
      '<srs><def><itm model="command" name="srssetup">SELECT 1</itm></def></srs>',
      /line 1: the definition has no command/,
    ],
    ['<srs>\n<def>\n<itm name="a">SELECT 1</itm></def></srs>', /line 3: <itm> needs a model attribute/],
  ])('an invalid definition is refused with the file and line: %#', async (xml, reason) => {
    writeSrs('97-invalid.xml', xml);
    for (const path of [
      '/api/srs/97?app_name=demo',
      '/api/srs/97/data.json?app_name=demo',
      '/api/srs/97/lab.frx.html?app_name=demo',
    ]) {
      const r = await f.as(f.adminJwt, path);
      expect(r.status, path).toBe(422);
      expect(r.body.data.code).toBe('srs_invalid');
      expect(r.body.message).toContain('The definition of SRS 97 is invalid: srs/97-invalid.xml');
      expect(r.body.message).toMatch(reason);
    }
    writeSrs('97-invalid.xml', '<srs><def><itm model="command" name="a">SELECT 1 AS a</itm></def></srs>');
    expect((await f.as(f.adminJwt, '/api/srs/97/data.json?app_name=demo')).status).toBe(200);
  });

  it('two files for one id are refused, naming both', async () => {
    writeSrs('98-a.xml', '<srs><def><itm model="command" name="a">SELECT 1 AS a</itm></def></srs>');
    writeSrs('98.xml', '<srs><def><itm model="command" name="a">SELECT 1 AS a</itm></def></srs>');
    const r = await f.as(f.adminJwt, '/api/srs/98?app_name=demo');
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('several files define SRS 98: 98-a.xml, 98.xml');
  });

  it('unused attributes and elements are warnings, shown to srs_administrator', async () => {
    writeSrs(
      '99-warn.xml',
      '<srs label="W" owner="me"><def><itm model="command" name="a" cache="yes">SELECT 1 AS a</itm><itm ' +
        'model="view" name="v"/></def><notes/></srs>',
    );
    const r = await f.as(f.adminJwt, '/api/srs/99?app_name=demo');
    expect(r.status).toBe(200);
    expect(r.body.data.warnings).toEqual([
      'line 1: attribute owner of <srs> is not used',
      'line 1: element <notes> is not used',
      'line 1: attribute cache of <itm> is not used',
      'line 1: <itm model="view"> is not a command or a param and is ignored',
    ]);
  });

  it("the definition's culture formats the report", async () => {
    writeSrs(
      '88-culture.xml',
      '<srs label="Kultur" culture="de-DE"><def><itm model="command" name="v" opts="dtsingle">SELECT 1234.5 ' +
        'AS amount</itm></def></srs>',
    );
    writeFileSync(
      join(f.appsDir, 'demo', 'templates', 'amount.frx'),
      '<Report><ReportPage Name="P"><ReportTitleBand Name="B" Width="718.2" Height="18.9"><TextObject ' +
        'Name="T" Width="300" Height="18.9" Text="[JSON.item.v.amount]" Format="Number" ' +
        'Format.UseLocale="true" Format.DecimalDigits="2"/></ReportTitleBand></ReportPage></Report>',
    );
    const r = await f.as(f.adminJwt, '/api/srs/88/amount.frx.html?app_name=demo');
    expect(r.status).toBe(200);
    expect(r.text).toContain('>1.234,50<');
    writeSrs(
      '88-culture.xml',
      '<srs label="Kultur" culture="tlh-KX"><def><itm model="command" name="v">SELECT 1 AS one</itm></def></srs>',
    );
    expect((await f.as(f.adminJwt, '/api/srs/88?app_name=demo')).body.message).toMatch(
      /line 1: culture "tlh-KX" is not supported/,
    );
  });

  it('Content-Disposition carries a non-ASCII template name (RFC 6266 / 5987)', async () => {
    copyFileSync(
      join(f.appsDir, 'demo', 'templates', 'lab.frx'),
      join(f.appsDir, 'demo', 'templates', 'Prüfbericht 2024 %.frx'),
    );
    const r = await f.as(f.adminJwt, `/api/srs/90/${encodeURIComponent('Prüfbericht 2024 %')}.frx.html?app_name=demo`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(
      `inline; filename="Pr_fbericht 2024 _.html"; filename*=UTF-8''Pr%C3%BCfbericht%202024%20%25.html`,
    );
  });
});
