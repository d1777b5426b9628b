// On SQLite and PostgreSQL: rows written by SQL show up in .frx.html and
// .frx.pdf; the merged .frx renders the same without the database; _new.frx opens in our engine
// and shows every command's fields. Plus the demo app's reports and the SRS rules of
// CONTRACT.md: params (query wins, defaults, NULL, types), srssetup, acl, dtsingle, one
// transaction, failing commands, the definition endpoint.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFrx, renderReport } from '../../src/report/index.js';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { POPPLER_AVAILABLE, pdfText as pdfFileText } from '../support/poppler.js';
import { htmlText, startSrsFixture, type SrsFixture } from './srs-fixture.js';

const APP = 'app_name=demo';

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-srs-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    return pdfFileText(join(dir, 'r.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDatabaseKinds())('SRS reports on %s', (kind) => {
  let f: SrsFixture;

  beforeAll(async () => {
    f = await startSrsFixture(kind);
    // Rows written by SQL, with values that appear nowhere in the seed.
    const db = f.inst.services.database.withApps;
    await sql`INSERT INTO app.demo_customers
                (id, name, contact, email, phone, street, postal_code, city, country, segment, credit_limit, note)
              VALUES (9001, 'Zebra Testhaus GmbH', 'Quentin Quark', NULL, NULL, 'Am Prüfstand 7', '99999',
                      'Testingen', 'Germany', 'small', NULL, NULL)`.execute(db);
    await sql`INSERT INTO app.demo_products (id, sku, name, category, unit_price)
              VALUES (9001, 'QK-STAPLE', 'Quokka stapler', 'Desk', 1234.5),
                     (9002, 'QK-CLIP', 'Quokka clip', 'Desk', 0.35)`.execute(db);
    await sql`INSERT INTO app.demo_orders (id, customer_id, order_date, due_date, shipped_date, status, reference, note)
              VALUES (9001, 9001, '2024-07-04', NULL, NULL, 'open', NULL, 'Handle with care & love')`.execute(db);
    await sql`INSERT INTO app.demo_order_lines (order_id, line_no, product_id, quantity, unit_price, discount_pct)
              VALUES (9001, 1, 9001, 3, 1234.5, 0), (9001, 2, 9002, 1000, 0.35, 10)`.execute(db);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  // 3 × 1,234.50 = 3,703.50; 1000 × 0.35 × 90 % = 315.00; net 4,018.50; VAT 20 % 803.70; 4,822.20.
  const EXPECTED = [
    'Zebra Testhaus GmbH',
    'Attn. Quentin Quark',
    'Am Prüfstand 7',
    '99999 Testingen',
    '9001',
    '4 Jul 2024',
    'on receipt',
    'Status: open',
    'QK-STAPLE',
    'Quokka stapler',
    '1,234.50',
    '€ 3,703.50',
    'Quokka clip',
    '10 %',
    '€ 315.00',
    '€ 4,018.50',
    '€ 803.70',
    '€ 4,822.20',
    '2 lines',
    'Note: Handle with care & love',
  ];

  it('.frx.html shows the rows written by SQL, with the document headers', async () => {
    const r = await f.as(f.adminJwt, `/api/srs/1/invoice.frx.html?${APP}&order_id=9001`);
    expect(r.status, r.text.slice(0, 500)).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe('inline; filename="invoice.html"');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.text).toMatch(/^<!DOCTYPE html>/);
    const text = htmlText(r.text);
    for (const s of EXPECTED) expect(text, s).toContain(s);
    // The data is escaped in the document, not interpreted.
    expect(r.text).toContain('Handle with care &amp; love');
  });

  // Without poppler-utils this is skipped with the message of test/support/poppler.ts (an error
  // under REQUIRE_POPPLER=1, as in CI).
  it.skipIf(!POPPLER_AVAILABLE)('.frx.pdf shows the same values (pdftotext)', async () => {
    const r = await f.bytes(f.adminJwt, `/api/srs/1/invoice.frx.pdf?${APP}&order_id=9001`);
    expect(r.status, r.body.toString().slice(0, 300)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toBe('inline; filename="invoice.pdf"');
    expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(r.body);
    for (const s of EXPECTED) expect(text, s).toContain(s);
  });

  it('the merged .frx reloads and renders the same without the database', async () => {
    const html = await f.as(f.adminJwt, `/api/srs/1/invoice.frx.html?${APP}&order_id=9001`);
    const merged = await f.as(f.adminJwt, `/api/srs/1/invoice.frx?${APP}&order_id=9001`);
    expect(merged.status, merged.text.slice(0, 300)).toBe(200);
    expect(merged.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(merged.headers.get('content-disposition')).toBe('inline; filename="invoice.frx"');
    // Raw JSON text in the connection string, not base64.
    expect(merged.text).toContain('Zebra Testhaus GmbH');
    // No database, no data argument: only the template.
    const again = renderReport({ template: merged.text, format: 'html' });
    expect(again.warnings).toEqual([]);
    expect(htmlText(String(again.output))).toBe(htmlText(html.text));
  });

  it('_new.frx opens in our engine and shows every field of every command', async () => {
    for (const [id, query] of [
      ['1', '&order_id=9001'],
      ['3', ''],
      ['90', '&text=hello'],
    ] as const) {
      const data = (await f.as(f.adminJwt, `/api/srs/${id}/data.json?${APP}${query}`)).body.data as Record<
        string,
        unknown
      >;
      const r = await f.as(f.adminJwt, `/api/srs/${id}/_new.frx?${APP}${query}`);
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(r.headers.get('content-disposition')).toMatch(new RegExp(`^inline; filename="${id}-[a-z-]+\\.frx"$`));
      expect(loadFrx(r.text).report.dictionary.connections.length).toBe(1);
      // Narrow columns wrap long values onto several lines: compare without whitespace.
      const squash = (s: string) => s.replace(/\s+/g, '');
      const text = squash(
        htmlText(String(renderReport({ template: r.text, data: { json: data }, format: 'html' }).output)),
      );
      let checked = 0;
      for (const [command, value] of Object.entries(data)) {
        const rows = Array.isArray(value) ? value : value === null ? [] : [value];
        for (const row of rows as Record<string, unknown>[]) {
          for (const [field, v] of Object.entries(row)) {
            expect(text, `${id}: ${command}.${field}`).toContain(squash(field));
            if (typeof v === 'string' && v !== '')
              expect(text, `${id}: ${command}.${field} = ${v}`).toContain(squash(v));
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(5);
    }
  });

  it('int and bool params stay integers in SQL (text concatenation, integer division)', async () => {
    writeFileSync(
      join(f.appsDir, 'demo', 'srs', '96-ints.xml'),
      `<srs label="Ints"><def><itm model="param" name="n" type="int">7</itm><itm model="param" name="b" ` +
        `type="bool">true</itm>
        <itm model="command" name="v" opts="dtsingle">SELECT 'n=' || @n AS text, @n / 2 AS half, ` +
        `'b=' || @b AS flag</itm></def></srs>`,
    );
    const r = await f.as(f.adminJwt, '/api/srs/96/data.json?app_name=demo&n=9');
    expect(r.status, r.text).toBe(200);
    const flag = r.body.data.v.flag;
    expect({ ...r.body.data.v, flag: undefined }).toEqual({ text: 'n=9', half: 4, flag: undefined });
    // SQLite has no boolean type (1); PostgreSQL casts a boolean to text as "true".
    expect(['b=1', 'b=true']).toContain(flag);
  });

  it('a client that goes away stops its render (no error logged), and the next render works', async () => {
    writeFileSync(
      join(f.appsDir, 'demo', 'srs', '95-rows.xml'),
      `<srs label="Rows"><def><itm model="param" name="count" type="int">10</itm>
        <itm model="command" name="rows">WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 ` +
        `FROM c WHERE i &lt; @count) SELECT i, 'row ' || i AS t FROM c</itm></def></srs>`,
    );
    writeFileSync(
      join(f.appsDir, 'demo', 'templates', 'rows.frx'),
      '<Report><ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" ' +
        'DataSource="rows"><TextObject Name="T" Width="300" Height="18.9" Text="match: ' +
        '[JSON.item.rows.item.t]"/></DataBand></ReportPage></Report>',
    );
    const pool = f.inst.services.srs.pool;
    const controller = new AbortController();
    const pending = fetch(`${f.inst.url}/api/srs/95/rows.frx.pdf?app_name=demo&count=40000`, {
      headers: { Authorization: `Bearer ${f.adminJwt}`, 'X-Request-Id': 'srs-abort-1' },
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await expect.poll(() => pool.stats().busy, { timeout: 10_000, interval: 5 }).toBe(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    // Rendering 40,000 rows to PDF takes over a second; the aborted one ends at once.
    await expect.poll(() => pool.stats().busy, { timeout: 500, interval: 10 }).toBe(0);
    const next = await f.as(f.adminJwt, `/api/srs/95/rows.frx.html?app_name=demo&count=3`);
    expect(next.status, next.text.slice(0, 300)).toBe(200);
    expect(htmlText(next.text)).toContain('match: row 3');
    expect(
      f.inst
        .logs()
        .split('\n')
        .filter((l) => l.includes('srs-abort-1') && l.includes('"level":50')),
    ).toEqual([]);
  });

  describe('the demo app', () => {
    it('the invoice of a seeded order', async () => {
      const r = await f.as(f.adminJwt, `/api/srs/1/invoice.frx.html?${APP}&order_id=1004`);
      expect(r.status).toBe(200);
      const text = htmlText(r.text);
      for (const s of [
        'Hanseatic Paper GmbH',
        'HP-77812',
        '2 Feb 2024',
        'PAID — thank you',
        '€ 980.00',
        '12.5 %',
        '€ 2,274.65',
        '€ 454.93',
        '€ 2,729.58',
      ])
        expect(text).toContain(s);
    });

    it('the grouped list with group and grand totals, filtered by params', async () => {
      const all = htmlText((await f.as(f.adminJwt, `/api/srs/2/sales-by-customer.frx.html?${APP}`)).text);
      expect(all).toContain('Total Eastwind Logistics Ltd: 8,991.80');
      expect(all).toContain('Total Zebra Testhaus GmbH: 4,018.50');
      expect(all).toContain('Grand total: 20,563.80');
      expect(all).toContain('15 orders in total');
      const paid = htmlText(
        (
          await f.as(
            f.adminJwt,
            `/api/srs/2/sales-by-customer.frx.html?${APP}&status=paid&from=2024-01-01&to=2024-01-31`,
          )
        ).text,
      );
      expect(paid).toContain('Orders from 1 Jan 2024 to 31 Jan 2024 · status: paid');
      expect(paid).toContain('Grand total: 6,173.10');
      expect(paid).not.toContain('Hanseatic');
    });

    it('HtmlTags, IIf and null checks; a command limited by acl is left out for other callers', async () => {
      const admin = await f.as(f.adminJwt, `/api/srs/3/customer-directory.frx.html?${APP}`);
      expect(admin.status).toBe(200);
      const text = htmlText(admin.text);
      expect(text).toMatch(/Alpine Outfitters AG\s*★ key account/);
      expect(text).toContain('no phone'); // Baltic Amber: phone IS NULL → IIf(... == null)
      expect(text).toContain('e-mail missing'); // Desert Bloom: email == DBNull.Value
      expect(text).toContain('Credit (internal)');
      expect(admin.text).toMatch(/font-weight:700[^>]*>Alpine Outfitters AG</); // <b> from HtmlTags
      const dora = await f.as(f.doraJwt, `/api/srs/3/customer-directory.frx.html?${APP}`);
      expect(dora.status).toBe(200);
      expect(htmlText(dora.text)).toContain('Alpine Outfitters AG');
      expect(htmlText(dora.text)).not.toContain('Credit (internal)');
    });
  });

  describe('data, params and commands', () => {
    it('data.json is the enveloped data: command → rows, dtsingle → one object or null', async () => {
      const r = await f.as(f.adminJwt, `/api/srs/1/data.json?${APP}&order_id=9001`);
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(true);
      expect(r.body.message).toBe('3 commands');
      expect(r.body.data.invoice).toMatchObject({
        order_id: 9001,
        customer_name: 'Zebra Testhaus GmbH',
        order_date: '2024-07-04',
        due_date: null,
        email: null,
      });
      expect(r.body.data.lines).toEqual([
        {
          line_no: 1,
          sku: 'QK-STAPLE',
          product: 'Quokka stapler',
          quantity: 3,
          unit_price: 1234.5,
          discount_pct: 0,
          amount: 3703.5,
        },
        {
          line_no: 2,
          sku: 'QK-CLIP',
          product: 'Quokka clip',
          quantity: 1000,
          unit_price: 0.35,
          discount_pct: 10,
          amount: 315,
        },
      ]);
      expect(r.body.data.totals).toEqual({ net: 4018.5, vat_pct: 20, vat: 803.7, gross: 4822.2 });
      // The invoice header is required (opts="dtsingle,required"): an order that does not exist
      // is a 404 naming the command, for the data and every rendering, never a blank invoice.
      for (const path of ['data.json', 'invoice.frx.html', 'invoice.frx.pdf', 'invoice.frx', '_new.frx']) {
        const missing = await f.as(f.adminJwt, `/api/srs/1/${path}?${APP}&order_id=9999`);
        expect(missing.status, `${path}: ${missing.text}`).toBe(404);
        expect(missing.body.data.code).toBe('record_not_found');
        expect(missing.body.message).toContain('"invoice"');
        expect(missing.body.data.details[0]).toMatchObject({ field: 'invoice', rule: 'required' });
      }
      // A dtsingle command that is not required still answers null.
      const lab = await f.as(f.adminJwt, `/api/srs/90/data.json?${APP}`);
      expect(lab.status, lab.text).toBe(200);
      expect(lab.body.data.nothing).toBeNull();
    });

    it('params: defaults, NULL without a value, typed values, built-ins; srssetup runs first', async () => {
      const r = await f.as(f.doraJwt, `/api/srs/90/data.json?${APP}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.echo).toEqual({
        n: 7,
        amount: null,
        flag: 'no',
        day: null,
        text: null,
        text_or: 'was null',
        label: 'default label',
        username: 'dora',
        app: 'demo',
        setup_value: 'default label',
        literal: '@n and :n in a literal',
      });
      expect(r.body.data.nothing).toBeNull();
      const typed = await f.as(
        f.doraJwt,
        `/api/srs/90/data.json?${APP}&n=-42&amount=12.50&flag=TRUE&day=2024-02-29&text=&label=L%C3%A4bel`,
      );
      expect(typed.body.data.echo).toMatchObject({
        n: -42,
        amount: 12.5,
        flag: 'yes',
        day: '2024-02-29',
        text: '',
        text_or: '',
        label: 'Läbel',
        setup_value: 'Läbel',
      });
    });

    it('params from a JSON body; the query string wins; names match case-insensitively', async () => {
      const r = await f.as(f.doraJwt, `/api/srs/90/data.json?${APP}&LABEL=from-query`, {
        method: 'POST',
        json: { n: 5, flag: true, label: 'from-body', text: null, unknown_name: 'ignored' },
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.echo).toMatchObject({ n: 5, flag: 'yes', label: 'from-query', text: null });
      const html = await f.as(f.doraJwt, `/api/srs/90/lab.frx.html?${APP}`, {
        method: 'POST',
        json: { text: 'posted text', n: 11 },
      });
      expect(html.status).toBe(200);
      expect(htmlText(html.text)).toContain('n=11 text=posted text');
    });

    it('a bad typed value is a 400 naming the param', async () => {
      for (const [query, param, rule] of [
        ['n=abc', 'n', 'int'],
        ['n=1.5', 'n', 'int'],
        ['n=99999999999999999999', 'n', 'int'],
        ['amount=1e5', 'amount', 'decimal'],
        ['flag=maybe', 'flag', 'bool'],
        ['day=2023-02-29', 'day', 'date'],
        ['day=29.02.2024', 'day', 'date'],
        ['n=1&n=2', 'n', 'single'],
        ['text=a%00b', 'text', 'no_nul'],
        [`text=${'x'.repeat(4001)}`, 'text', 'maxLength'],
      ] as const) {
        const r = await f.as(f.doraJwt, `/api/srs/90/data.json?${APP}&${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body.data.code, query).toBe('invalid_param');
        expect(r.body.data.details[0], query).toMatchObject({ field: param, rule });
        expect(r.body.message, query).toContain(`param ${param}`);
      }
      const body = await f.as(f.doraJwt, `/api/srs/90/data.json?${APP}`, {
        method: 'POST',
        json: { n: { nested: true } },
      });
      expect(body.status).toBe(400);
      const float = await f.as(f.doraJwt, `/api/srs/90/data.json?${APP}`, { method: 'POST', json: { n: 2.5 } });
      expect(float.body.data.details[0]).toMatchObject({ field: 'n', rule: 'int' });
    });

    it('acl: a command the caller may not run is not run; its data is empty', async () => {
      const dora = await f.as(f.doraJwt, `/api/srs/90/data.json?${APP}`);
      expect(dora.body.data.secret).toEqual([]);
      expect(dora.body.message).toBe('4 commands; not allowed for the caller: secret');
      const admin = await f.as(f.adminJwt, `/api/srs/90/data.json?${APP}`);
      expect(admin.body.data.secret).toEqual([{ s: 'classified' }]);
      expect(admin.body.message).toBe('4 commands');
    });

    it('GET /api/srs/{id}: the definition, with SQL only for srs_administrator', async () => {
      const dora = await f.as(f.doraJwt, `/api/srs/90?${APP}`);
      expect(dora.status).toBe(200);
      expect(dora.body.message).toBe('Lab');
      expect(dora.body.data).toMatchObject({
        id: '90',
        app: 'demo',
        file: 'srs/90-lab.xml',
        label: 'Lab',
        culture: null,
      });
      expect(dora.body.data.params).toContainEqual({ name: 'n', type: 'int', default: '7', label: null });
      expect(dora.body.data.params).toContainEqual({ name: 'raw', type: 'string', default: null, label: null });
      expect(dora.body.data.commands.map((c: { name: string }) => c.name)).toEqual([
        'srssetup',
        'echo',
        'matches',
        'secret',
        'nothing',
      ]);
      expect(dora.body.data.commands.find((c: { name: string }) => c.name === 'secret')).toEqual({
        name: 'secret',
        setup: false,
        single: false,
        required: false,
        acl: ['lab_secret', 'srs_administrator'],
        allowed: false,
      });
      expect(dora.body.data.templates).toEqual(['customer-directory', 'invoice', 'lab', 'rows', 'sales-by-customer']);
      expect(dora.text).not.toContain('SELECT');
      expect(dora.body.data.warnings).toBeUndefined();
      const admin = await f.as(f.adminJwt, `/api/srs/90?${APP}`);
      expect(admin.body.data.commands[1].sql).toContain('SELECT @n AS n');
      expect(admin.body.data.warnings).toEqual([]);
    });

    it(
      'a failing command answers 422 naming it, without SQL or driver text; the log has both, with the request ' + 'id',
      async () => {
        writeFileSync(
          join(f.appsDir, 'demo', 'srs', '91-fails.xml'),
          `<srs label="Fails"><def>
          <itm model="command" name="fine">SELECT 1 AS one</itm>
          <itm model="command" name="boom">SELECT secret_column FROM no_such_table_xyz WHERE x = @p</itm>
          <itm model="param" name="p">1</itm>
        </def></srs>`,
        );
        const r = await f.as(f.adminJwt, `/api/srs/91/data.json?${APP}`, {
          headers: { 'X-Request-Id': 'srs-fail-check-1' },
        });
        expect(r.status).toBe(422);
        expect(r.body.success).toBe(false);
        expect(r.body.data.code).toBe('command_failed');
        expect(r.body.message).toBe('Command "boom" failed');
        expect(r.body.data.details).toEqual([{ field: 'boom', rule: 'command', message: 'Command "boom" failed' }]);
        expect(r.text).not.toMatch(/no_such_table|secret_column|SELECT|sqlite|relation/i);
        // Log lines are written asynchronously: wait for this one.
        const logLine = () =>
          f.inst
            .logs()
            .split('\n')
            .find((l) => l.includes('srs-fail-check-1') && l.includes('no_such_table_xyz'));
        await expect.poll(logLine, { timeout: 5000 }).toBeTruthy();
        const line = logLine();
        expect(line).toContain('"command":"boom"');
      },
    );

    it(
      'one transaction per request: srssetup first, and a ' + 'failure rolls back what earlier commands wrote',
      async () => {
        const db = f.inst.services.database.withApps;
        await sql`CREATE TABLE app.srs_audit (what VARCHAR(50) NOT NULL PRIMARY KEY)`.execute(db);
        writeFileSync(
          join(f.appsDir, 'demo', 'srs', '92-tx.xml'),
          `<srs label="Transaction"><def>
          <itm model="param" name="run" type="string">1</itm>
          <itm model="param" name="key" type="string">unique-1</itm>
          <itm model="command" name="writes">INSERT INTO srs_audit (what) VALUES ('printed-' || @run)</itm>
          <itm model="command" name="count">SELECT COUNT(*) AS n FROM srs_audit</itm>
          <itm model="command" name="maybe_fails">INSERT INTO srs_audit (what) VALUES (@key)</itm>
          <itm model="command" name="srssetup">INSERT INTO srs_audit (what) VALUES ('setup-' || @run)</itm>
        </def></srs>`,
        );
        const ok = await f.as(f.adminJwt, `/api/srs/92/data.json?${APP}`);
        expect(ok.status, ok.text).toBe(200);
        // Setup ran before "writes", though it is defined last; both are visible to "count".
        expect(ok.body.data).toEqual({ writes: [], count: [{ n: 2 }], maybe_fails: [] });
        // A duplicate key fails the last command at run time: setup-2 and printed-2 are rolled back.
        const bad = await f.as(f.adminJwt, `/api/srs/92/data.json?${APP}&run=2&key=printed-1`);
        expect(bad.status).toBe(422);
        expect(bad.body.message).toBe('Command "maybe_fails" failed');
        const rows = await sql<{ what: string }>`SELECT what FROM app.srs_audit ORDER BY what`.execute(db);
        expect(rows.rows.map((x) => x.what)).toEqual(['printed-1', 'setup-1', 'unique-1']);
      },
    );

    it('a failing srssetup stops the run', async () => {
      writeFileSync(
        join(f.appsDir, 'demo', 'srs', '93-setup.xml'),
        `<srs label="Setup fails"><def>
          <itm model="command" name="srssetup">SELECT x FROM no_such_setup_table</itm>
          <itm model="command" name="after">INSERT INTO srs_audit (what) VALUES ('after setup')</itm>
        </def></srs>`,
      );
      const r = await f.as(f.adminJwt, `/api/srs/93/data.json?${APP}`);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe('Command "srssetup" failed');
      const rows = await sql<{
        n: number | string;
      }>`SELECT COUNT(*) AS n FROM app.srs_audit WHERE what = 'after setup'`.execute(f.inst.services.database.withApps);
      expect(Number(rows.rows[0]?.n)).toBe(0);
    });
  });
});
