// `platform-core render` run for real under the server's render limits: a hostile template is
// stopped at --timeout / --max-memory-mb (or the settings that give their defaults) with exit
// status 2 and one message, a report over --max-pages (Settings:RenderMaxPages) fails the same
// way instead of being cut, bad limit values are usage errors, and a normal render gives the same
// output as the in-process renderReport.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/report/index.js';
import { mergeDataIntoTemplate } from '../../../src/report/template/index.js';
import { withoutPdfTimestamps } from '../../unit/render-pool-fixture.js';
import { FIXTURE_DIR, NWIND_PATH } from '../engine/helpers.js';
import { ensureBuilt, runCli, type CliResult } from './cli.js';

// A valid template that is hostile by size: a million rows (the engine's row cap) of three texts
// each, about 1,900 pages of 520 rows (under the default page limit of 10,000). In-process it
// takes over a gigabyte of heap and 10+ seconds, far beyond the limits given below, so the tests
// do not depend on how fast the engine is.
const HOSTILE = `<?xml version="1.0" encoding="utf-8"?>
<Report ReportInfo.Name="Hostile">
  <ReportPage Name="Page1">
    <DataBand Name="Rows" Width="718.2" Height="2" RowCount="1000000">
      <TextObject Name="A" Width="240" Height="2" Text="Row [Row#] of a report that never ends" Font="Arial, 9pt"/>
      <TextObject Name="B" Left="240" Width="240" Height="2" Text="[Row#] [Row#] [Row#]" Font="Arial, 9pt"/>
      <TextObject Name="C" Left="480" Width="238" Height="2" Text="[Row#]" Font="Arial, 9pt"/>
    </DataBand>
  </ReportPage>
</Report>`;

/** The same with a link to page 1 on every row: a document with links inside it holds its pages
 *  until the end (their targets come first), so its heap is what the limit stops. The plain one
 *  streams its pages (engine/page-stream.ts) within 64 MB of heap; the limit then stops it on the
 *  document's bytes (RenderOutputTooLargeError). */
const HOSTILE_HELD = HOSTILE.replace('Name="C"', 'Name="C" Hyperlink.Kind="PageNumber" Hyperlink.Value="1"');

/** How long the CLI may take to give up on a hostile render: process and worker start, the limit
 *  itself, and a loaded 2-core machine. Generous: only "it did not run on" is asserted. */
const GIVE_UP_MS = 45_000;
/** Kills a CLI that runs on (without limits the hostile template renders for long). */
const KILL_MS = 60_000;
/** A test running up to two hostile renders reports their outcome rather than its own timeout. */
const HOSTILE_TEST_MS = 2 * KILL_MS + 10_000;

const TIME_MESSAGE = new RegExp(
  /the report took longer than 1 s to render and was stopped; /.source +
    /raise the limit with --timeout <seconds> or Settings:RenderTimeoutSeconds/.source,
);
const MEMORY_MESSAGE = new RegExp(
  /the report needs more than the 64 MB of memory a render may use and was stopped; /.source +
    /raise the limit with --max-memory-mb <MB> or Settings:RenderMemoryMb/.source,
);

let dir = '';
let hostile = '';
let hostileHeld = '';

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'render-cli-limits-'));
  hostile = join(dir, 'hostile.frx');
  writeFileSync(hostile, HOSTILE);
  hostileHeld = join(dir, 'hostile-held.frx');
  writeFileSync(hostileHeld, HOSTILE_HELD);
}, 240_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** This process's environment without anything that configures an instance (a developer's own
 *  Settings__* must not change the limits under test), plus `extra`. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(settings__.*|config_file|database_url|data_dir)$/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** A folder of its own to run in: no appsettings.json unless the test writes one. */
function workDir(name: string, settings?: string): string {
  const cwd = mkdtempSync(join(dir, `${name}-`));
  if (settings !== undefined) writeFileSync(join(cwd, 'appsettings.json'), settings);
  return cwd;
}

interface Timed extends CliResult {
  ms: number;
}

async function timedCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Timed> {
  const started = Date.now();
  const r = await runCli(args, KILL_MS, { cwd: opts.cwd ?? workDir('run'), env: opts.env ?? cleanEnv() });
  return { ...r, ms: Date.now() - started };
}

const said = (r: Timed): string => `exit ${r.code} after ${r.ms} ms\n--- stderr ---\n${r.stderr.slice(0, 2000)}`;

/** Stopped at a limit: exit 2 by itself in a bounded time, one line naming the template and the
 *  limit, no output anywhere. */
function expectStopped(r: Timed, message: RegExp, out?: string, template = hostile): void {
  expect(r.code, said(r)).toBe(2);
  expect(r.ms, said(r)).toBeLessThan(GIVE_UP_MS);
  expect(r.stderr, said(r)).toMatch(
    new RegExp(`^platform-core: ${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${message.source}\n$`),
  );
  expect(r.stdout).toBe('');
  if (out !== undefined) expect(existsSync(out), `${out} was created`).toBe(false);
}

describe('render limits: a hostile template is stopped', () => {
  it(
    'at --timeout: exit 2 with one message naming the limit and how to raise it, no file written',
    async () => {
      const out = join(dir, 'timeout.html');
      // Memory high enough that time is what stops it.
      const r = await timedCli(['render', hostile, '--out', out, '--timeout', '1', '--max-memory-mb', '4096']);
      expectStopped(r, TIME_MESSAGE, out);
    },
    HOSTILE_TEST_MS,
  );

  it(
    'at --max-memory-mb (a PDF): exit 2 with one message naming the limit and how to raise it, no file written',
    async () => {
      const out = join(dir, 'memory.pdf');
      // Time long enough that memory is what stops it.
      const r = await timedCli([
        'render',
        hostileHeld,
        '--format',
        'pdf',
        '--out',
        out,
        '--timeout',
        '600',
        '--max-memory-mb',
        '64',
      ]);
      expectStopped(r, MEMORY_MESSAGE, out, hostileHeld);
    },
    HOSTILE_TEST_MS,
  );

  it(
    'at the limits of Settings__RenderTimeoutSeconds and appsettings.json Settings:RenderMemoryMb when no ' +
      'flag is given',
    async () => {
      const byTime = await timedCli(['render', hostile], {
        env: cleanEnv({ Settings__RenderTimeoutSeconds: '1', Settings__RenderMemoryMb: '4096' }),
      });
      expectStopped(byTime, TIME_MESSAGE);
      const cwd = workDir(
        'settings-file',
        JSON.stringify({ Settings: { RenderMemoryMb: 64, RenderTimeoutSeconds: 600 } }),
      );
      // The plain one streams its HTML within 64 MB of heap: the same limit, counted on the
      // document's bytes, stops it.
      const byMemory = await timedCli(['render', hostile], { cwd });
      expectStopped(byMemory, MEMORY_MESSAGE);
    },
    HOSTILE_TEST_MS,
  );

  it(
    'a flag wins over its setting',
    async () => {
      const r = await timedCli(['render', hostile, '--timeout', '1'], {
        env: cleanEnv({ Settings__RenderTimeoutSeconds: '600', Settings__RenderMemoryMb: '4096' }),
      });
      expectStopped(r, TIME_MESSAGE);
    },
    HOSTILE_TEST_MS,
  );
});

describe('render limits: flags and settings', () => {
  const simple = `${FIXTURE_DIR}Simple List.frx`;

  it(
    'refuses limit values that are not positive numbers in range as usage errors',
    async () => {
      const cases: [string, string, RegExp][] = [
        ['--timeout', '0', /--timeout must be a number of seconds from 0\.1 to 3600 \(got "0"\)/],
        ['--timeout', '-1', /--timeout must be a number of seconds/],
        ['--timeout', 'soon', /--timeout must be a number of seconds/],
        ['--timeout', '0x10', /--timeout must be a number of seconds/],
        ['--timeout', '3601', /--timeout must be a number of seconds/],
        ['--max-memory-mb', '63', /--max-memory-mb must be a whole number of MB from 64 to 65536 \(got "63"\)/],
        ['--max-memory-mb', '128.5', /--max-memory-mb must be a whole number of MB/],
        ['--max-memory-mb', '1e3', /--max-memory-mb must be a whole number of MB/],
        ['--max-memory-mb', '', /--max-memory-mb must be a whole number of MB/],
      ];
      const results = await Promise.all(
        cases.map(([flag, value]) => timedCli(['render', simple, '--data', NWIND_PATH, flag, value])),
      );
      results.forEach((r, i) => {
        const [flag, value, message] = cases[i] as [string, string, RegExp];
        expect(r.code, `${flag} ${JSON.stringify(value)}: ${said(r)}`).toBe(2);
        expect(r.stderr, `${flag} ${JSON.stringify(value)}`).toMatch(message);
        expect(r.stdout).toBe('');
      });
    },
    KILL_MS + 10_000,
  );

  it(
    'reads no configuration when all three limit flags are given: a broken appsettings.json does not stop the ' +
      'render',
    async () => {
      const cwd = workDir('broken-settings', '{ "Settings": ');
      const r = await timedCli(
        ['render', simple, '--data', NWIND_PATH, '--timeout', '60', '--max-memory-mb', '512', '--max-pages', '100'],
        { cwd },
      );
      expect(r.code, said(r)).toBe(0);
      expect(r.stdout).toContain('data-page="1"');
      // Without them the settings give the defaults, and a file that cannot be read is an error.
      const without = await timedCli(
        ['render', simple, '--data', NWIND_PATH, '--timeout', '60', '--max-memory-mb', '512'],
        { cwd },
      );
      expect(without.code, said(without)).toBe(2);
      expect(without.stderr).toMatch(
        /appsettings\.json is not valid JSON .*give --timeout, --max-memory-mb and --max-pages/,
      );
      expect(without.stdout).toBe('');
    },
  );

  it(
    'reads only the render settings: other bad settings ' + 'and a bad DATABASE_URL do not matter to a render',
    async () => {
      const env = cleanEnv({
        Settings__LogLevel: 'loud',
        Settings__JwtExpireHours: 'never',
        DATABASE_URL: 'mysql://nowhere',
      });
      const r = await timedCli(['render', simple, '--data', NWIND_PATH], { env });
      expect(r.code, said(r)).toBe(0);
      const bad = await timedCli(['render', simple, '--data', NWIND_PATH], {
        env: cleanEnv({ Settings__RenderMemoryMb: '32' }),
      });
      expect(bad.code, said(bad)).toBe(2);
      expect(bad.stderr).toMatch(/Settings:RenderMemoryMb must be an integer from 64 to 65536 \(got "32"\)/);
    },
  );
});

describe('render limits: pages', () => {
  /** One row per page (each row is taller than half a page): three pages. */
  const THREE_PAGES =
    `<Report><ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="600" RowCount="3"><TextObject ` +
    `Name="T" Width="200" Height="20" Text="row [Row#]"/></DataBand></ReportPage></Report>`;
  const pagesMessage = (template: string, limit: number) =>
    `platform-core: ${template}: the report has more than ${limit} pages and was not rendered; raise the ` +
    `limit with --max-pages <pages> or Settings:RenderMaxPages\n`;
  let template = '';
  beforeAll(() => {
    template = join(dir, 'three-pages.frx');
    writeFileSync(template, THREE_PAGES);
  });

  it(
    'over --max-pages: exit 2 with one line naming the limit and how to raise it, no file written, never the ' +
      'first pages',
    async () => {
      const out = join(dir, 'pages.html');
      const r = await timedCli(['render', template, '--max-pages', '2', '--out', out]);
      expect(r.code, said(r)).toBe(2);
      expect(r.stderr).toBe(pagesMessage(template, 2));
      expect(r.stdout).toBe('');
      expect(existsSync(out), `${out} was created`).toBe(false);
      const pdf = await timedCli([
        'render',
        template,
        '--format',
        'pdf',
        '--max-pages',
        '1',
        '--out',
        join(dir, 'pages.pdf'),
      ]);
      expect(pdf.code, said(pdf)).toBe(2);
      expect(pdf.stderr).toBe(pagesMessage(template, 1));
    },
  );

  it('over Settings:RenderMaxPages when no flag is given; at the limit the report renders whole', async () => {
    const over = await timedCli(['render', template], { env: cleanEnv({ Settings__RenderMaxPages: '2' }) });
    expect(over.code, said(over)).toBe(2);
    expect(over.stderr).toBe(pagesMessage(template, 2));
    const at = await timedCli(['render', template, '--max-pages', '3'], {
      env: cleanEnv({ Settings__RenderMaxPages: '2' }),
    });
    expect(at.code, said(at)).toBe(0);
    expect(at.stderr).toBe('');
    expect(at.stdout).toContain('data-page="3"');
    expect(at.stdout).toContain('>row 3<');
  });

  it('refuses --max-pages values that are not whole numbers of pages in range as usage errors', async () => {
    const values = ['0', '1.5', '-1', 'all', '1000001', ''];
    const results = await Promise.all(values.map((v) => timedCli(['render', template, '--max-pages', v])));
    results.forEach((r, i) => {
      const v = values[i] as string;
      expect(r.code, `${JSON.stringify(v)}: ${said(r)}`).toBe(2);
      expect(r.stderr).toBe(
        `platform-core: --max-pages must be a whole number of pages from 1 to 1000000 (got ${JSON.stringify(v)})\n`,
      );
    });
  });
});

describe('render in a worker gives the output of the in-process render', () => {
  it('html with DataSet XML', async () => {
    const template = `${FIXTURE_DIR}Simple List.frx`;
    const r = await timedCli(['render', template, '--data', NWIND_PATH]);
    expect(r.code, said(r)).toBe(0);
    const expected = renderReport({
      template: readFileSync(template),
      data: { datasetXml: readFileSync(NWIND_PATH) },
      format: 'html',
    }).output;
    expect(r.stdout === expected, 'the CLI HTML differs from renderReport').toBe(true);
  });

  it('html with JSON tables, a culture and embedded fonts, with the warnings on stderr', async () => {
    const template = join(dir, 'tables.frx');
    writeFileSync(
      template,
      `<Report><Dictionary><TableDataSource Name="People" Enabled="true"><Column Name="Name" ` +
        `DataType="System.String"/><Column Name="Pay" ` +
        `DataType="System.Decimal"/></TableDataSource></Dictionary>
      <ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" DataSource="People">
        <TextObject Name="T" Width="300" Height="18.9" Text="[People.Name]: [People.Pay]" ` +
        `Format="Currency" Format.UseLocale="true"/>
        <UnknownThing Name="U"/>
      </DataBand></ReportPage></Report>`,
    );
    const rows = {
      People: [
        { Name: 'Zoe', Pay: 1234.5 },
        { Name: 'Adam', Pay: 7 },
      ],
    };
    const data = join(dir, 'people.json');
    writeFileSync(data, JSON.stringify(rows));
    const r = await timedCli(['render', template, '--data', data, '--culture', 'de-DE', '--embed-fonts']);
    expect(r.code, said(r)).toBe(0);
    const expected = renderReport({
      template: readFileSync(template),
      data: { tables: rows },
      culture: 'de-DE',
      embedFonts: true,
      format: 'html',
    });
    expect(r.stdout === expected.output, 'the CLI HTML differs from renderReport').toBe(true);
    expect(r.stdout).toContain('@font-face');
    expect(expected.warnings).toContainEqual(expect.stringMatching(/UnknownThing/));
    expect(r.stderr).toBe(expected.warnings.map((w) => `warning: ${w}\n`).join(''));
  });

  it('pdf to a file', async () => {
    const template = `${FIXTURE_DIR}Purchase Order.frx`;
    const out = join(dir, 'order.pdf');
    const r = await timedCli(['render', template, '--data', NWIND_PATH, '--format', 'pdf', '--out', out]);
    expect(r.code, said(r)).toBe(0);
    const expected = renderReport({
      template: readFileSync(template),
      data: { datasetXml: readFileSync(NWIND_PATH) },
      format: 'pdf',
    }).output;
    expect(
      withoutPdfTimestamps(readFileSync(out)) === withoutPdfTimestamps(expected as Buffer),
      'the CLI PDF differs from renderReport',
    ).toBe(true);
  });

  it('frx: the template with the JSON data embedded', async () => {
    const template = join(dir, 'merge.frx');
    writeFileSync(
      template,
      `<Report><Dictionary><JsonDataSourceConnection Name="C"><JsonTableDataSource Name="JSON" ` +
        `Enabled="true"/></JsonDataSourceConnection></Dictionary>
      <ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" DataSource="rows">
        <TextObject Name="T" Width="300" Height="18.9" Text="[JSON.item.rows.item.name]"/>
      </DataBand></ReportPage></Report>`,
    );
    const text = JSON.stringify({ rows: [{ name: 'Ärger "quoted"', n: 1.5 }, { name: null }] });
    const data = join(dir, 'merge.json');
    writeFileSync(data, text);
    const r = await timedCli(['render', template, '--data', data, '--format', 'frx']);
    expect(r.code, said(r)).toBe(0);
    expect(r.stdout).toBe(mergeDataIntoTemplate(readFileSync(template), text));
  });
});
