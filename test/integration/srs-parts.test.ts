// The SRS service's pure parts, without a server: template names, definition files, params,
// Content-Disposition, and how PostgreSQL values become JSON.
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { bindNamedParameters } from '../../src/db/sql-text.js';
import { inlineDisposition } from '../../src/srs/content-disposition.js';
import { definitionFileFor } from '../../src/srs/definition/store.js';
import { parseSrsDefinition, SrsDefinitionError } from '../../src/srs/definition/parse.js';
import { checkParamValue, resolveParams } from '../../src/srs/params.js';
import { parseInt8, parseNumeric, parseTimestamp } from '../../src/srs/pg-types.js';
import { templateNameProblem } from '../../src/srs/templates.js';
import { AppError } from '../../src/lib/errors.js';
import { LAB_SRS } from './srs-fixture.js';

describe('template names', () => {
  it.each(['invoice', 'Rechnung Müller', 'a.b', 'x-y_z', '1', '%2e%2e', 'a'.repeat(200)])('accepts %j', (name) => {
    expect(templateNameProblem(name)).toBeNull();
  });
  it.each([
    ['', 'is empty'],
    ['../x', 'contains a path separator'],
    ['a\\b', 'contains a path separator'],
    ['..', 'contains ".."'],
    ['a..b', 'contains ".."'],
    ['a\u0000b', 'contains a control character'],
    ['a\nb', 'contains a control character'],
    ['.hidden', 'starts with "."'],
    ['a'.repeat(201), 'is longer than 200 characters'],
  ])('refuses %j: %s', (name, problem) => {
    expect(templateNameProblem(name)).toBe(problem);
  });
});

describe('definition files', () => {
  const names = ['1-invoice.xml', '10-other.xml', '2.xml', '3-a.xml', '3-b.xml', '4-x.xml.bak', '5-notes.txt'];
  it('finds <id>-<slug>.xml or <id>.xml, exactly', () => {
    expect(definitionFileFor(names, '1')).toBe('1-invoice.xml');
    expect(definitionFileFor(names, '10')).toBe('10-other.xml');
    expect(definitionFileFor(names, '2')).toBe('2.xml');
    expect(definitionFileFor(names, '3')).toEqual({ ambiguous: ['3-a.xml', '3-b.xml'] });
    expect(definitionFileFor(names, '4')).toBeNull();
    expect(definitionFileFor(names, '5')).toBeNull();
    expect(definitionFileFor(names, '0')).toBeNull();
  });

  it('parses the lab definition: params, setup, commands, acl, dtsingle', () => {
    const d = parseSrsDefinition('90', 'srs/90-lab.xml', LAB_SRS);
    expect(d.label).toBe('Lab');
    expect(d.setup?.name).toBe('srssetup');
    expect(d.commands.map((c) => [c.name, c.single, c.acl])).toEqual([
      ['echo', true, []],
      ['matches', false, []],
      ['secret', false, ['lab_secret', 'srs_administrator']],
      ['nothing', true, []],
    ]);
    expect(d.params.find((p) => p.name === 'n')).toMatchObject({
      type: 'int',
      typed: true,
      defaultValue: '7',
      line: 4,
    });
    expect(d.params.find((p) => p.name === 'raw')).toMatchObject({ type: 'string', typed: false, defaultValue: null });
    expect(d.commands.some((c) => c.required)).toBe(false);
  });

  it('reads opts="dtsingle,required" in any order and case', () => {
    const d = parseSrsDefinition(
      '1',
      'srs/1.xml',
      '<srs><def><itm model="command" name="a" opts=" Required , dtsingle">SELECT 1</itm>' +
        '<itm model="command" name="b" opts="dtsingle">SELECT 1</itm></def></srs>',
    );
    expect(d.commands.map((c) => [c.name, c.single, c.required])).toEqual([
      ['a', true, true],
      ['b', true, false],
    ]);
  });

  it('keeps SQL with < in CDATA and reports a bad file with its line', () => {
    const d = parseSrsDefinition(
      '1',
      'srs/1.xml',
      '<srs><def><itm model="command" name="a"><![CDATA[SELECT 1 WHERE 1 < 2]]></itm></def></srs>',
    );
    expect(d.commands[0]?.sql).toBe('SELECT 1 WHERE 1 < 2');
    expect(d.label).toBe('1');
    try {
      parseSrsDefinition(
        '1',
        'srs/1.xml',
        '<srs>\n<def>\n<itm model="command" name="a">SELECT 1 WHERE 1 < 2</itm></def></srs>',
      );
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(SrsDefinitionError);
      expect((err as SrsDefinitionError).line).toBe(3);
      expect((err as Error).message).toMatch(/^srs\/1\.xml line 3: malformed XML/);
    }
  });
});

describe('params', () => {
  const params = parseSrsDefinition('90', 'srs/90-lab.xml', LAB_SRS).params;

  it.each([
    ['int', '-12', null],
    ['int', '9007199254740992', 'is not an integer (digits, optional sign, at most 2^53 - 1)'],
    ['decimal', '-0.5', null],
    ['decimal', '.5', null],
    ['decimal', '5.', null],
    ['decimal', 'NaN', 'is not a decimal number (digits with an optional sign and "." fraction)'],
    ['bool', 'On', null],
    ['date', '2000-02-29', null],
    ['date', '1900-02-29', 'is not a date (YYYY-MM-DD)'],
    ['date', '2024-13-01', 'is not a date (YYYY-MM-DD)'],
    ['string', "'; DROP TABLE x; --", null],
  ] as const)('%s %j → %s', (type, text, problem) => {
    expect(checkParamValue(type, text)).toBe(problem);
  });

  it('converts typed values, and gives NULL for an empty typed value', () => {
    const v = resolveParams(params, {
      query: { n: '+5', amount: '+1.50', flag: 'yes', day: '', text: '' },
      body: undefined,
    });
    expect(v).toMatchObject({
      n: 5,
      amount: '1.50',
      flag: true,
      day: null,
      text: '',
      label: 'default label',
      raw: null,
    });
  });

  it('reports every bad param at once', () => {
    try {
      resolveParams(params, { query: { n: 'x', flag: 'x' }, body: { day: 'x' } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).details?.map((d) => d.field)).toEqual(['n', 'flag', 'day']);
    }
  });
});

describe('Content-Disposition', () => {
  it.each([
    ['invoice.pdf', 'inline; filename="invoice.pdf"'],
    ['Rechnung Müller.pdf', `inline; filename="Rechnung M_ller.pdf"; filename*=UTF-8''Rechnung%20M%C3%BCller.pdf`],
    ['a"b\\c.html', `inline; filename="a_b_c.html"; filename*=UTF-8''a%22b%5Cc.html`],
    ['100%.pdf', `inline; filename="100_.pdf"; filename*=UTF-8''100%25.pdf`],
    ['日本.pdf', `inline; filename="__.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf`],
    ['e\u0301.pdf', `inline; filename="_.pdf"; filename*=UTF-8''%C3%A9.pdf`], // NFC first
  ])('%j', (name, header) => {
    expect(inlineDisposition(name)).toBe(header);
  });
});

describe('PostgreSQL values as JSON', () => {
  it('numeric: a number when exact, else the text', () => {
    expect(parseNumeric('12.50')).toBe(12.5);
    expect(parseNumeric('-0.001')).toBe(-0.001);
    expect(parseNumeric('123456789012345')).toBe(123456789012345);
    expect(parseNumeric('1234567890123456')).toBe('1234567890123456');
    expect(parseNumeric('0.1234567890123456')).toBe('0.1234567890123456');
    expect(parseNumeric('NaN')).toBe('NaN');
  });
  it('bigint: a number when safe', () => {
    expect(parseInt8('42')).toBe(42);
    expect(parseInt8('9007199254740993')).toBe('9007199254740993');
  });
  it('timestamps keep their wall-clock text', () => {
    expect(parseTimestamp('2024-03-01 10:20:30')).toBe('2024-03-01T10:20:30');
    expect(parseTimestamp('2024-03-01 10:20:30.123456')).toBe('2024-03-01T10:20:30.123456');
    expect(parseTimestamp('2024-03-01 10:20:30+00')).toBe('2024-03-01T10:20:30Z');
    expect(parseTimestamp('2024-03-01 10:20:30+05:30')).toBe('2024-03-01T10:20:30+05:30');
    expect(parseTimestamp('2024-03-01 10:20:30-08')).toBe('2024-03-01T10:20:30-08:00');
    expect(parseTimestamp('infinity')).toBe('infinity');
  });
});

describe('settings of the SRS service', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'pc-srs-config-'));
  it('has the documented defaults', () => {
    const s = loadConfig({}, dir()).settings;
    expect(s.renderWorkers).toBe(Math.max(1, availableParallelism() - 1));
    expect(s.renderQueueLimit).toBe(4 * s.renderWorkers);
    expect([s.renderTimeoutSeconds, s.renderMemoryMb, s.srsStatementTimeoutSeconds, s.srsMaxRows]).toEqual([
      60, 512, 30, 100_000,
    ]);
    expect(loadConfig({ Settings__RenderWorkers: '3' }, dir()).settings.renderQueueLimit).toBe(12);
  });
  it.each([
    ['Settings__RenderWorkers', '0'],
    ['Settings__RenderWorkers', 'many'],
    ['Settings__RenderQueueLimit', '-1'],
    ['Settings__RenderTimeoutSeconds', '0'],
    ['Settings__RenderMemoryMb', '10'],
    ['Settings__SrsStatementTimeoutSeconds', 'x'],
    ['Settings__SrsMaxRows', '0'],
  ])('refuses %s=%s naming the setting', (key, value) => {
    expect(() => loadConfig({ [key]: value }, dir())).toThrow(new RegExp(key.replace('__', ':')));
  });
});

describe('binding typed params (sql-text placeholder option)', () => {
  const postgres = new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  it('wraps the bound parameter, which stays bound', () => {
    const b = bindNamedParameters(
      'select * from t where (@d is null or day = @d) and n = :n',
      { d: null, n: 5 },
      {
        prefixes: ['@', ':'],
        placeholder: (name, value) => (name === 'd' ? sql`cast(${value} as date)` : sql`${value}`),
      },
    );
    const c = b.query.compile(postgres);
    expect(c.sql).toBe('select * from t where (cast($1 as date) is null or day = cast($2 as date)) and n = $3');
    expect(c.parameters).toEqual([null, null, 5]);
  });
});
