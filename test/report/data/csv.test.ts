// CSV connections: the parser (quotes, separators, line breaks, limits), the connection string's
// keys with FastReport's defaults, and typed tables.

import { describe, expect, it } from 'vitest';
import { csvOptions, csvTable, decodeCsvBytes, DEFAULT_CSV_LIMITS, parseCsv } from '../../../src/report/data/index.js';
import { TemplateError } from '../../../src/report/errors.js';

describe('parseCsv', () => {
  it('splits on the separator, with quoted fields holding separators, quotes and line breaks', () => {
    const text = 'a;b;c\r\n"x;y";"say ""hi""";"two\r\nlines"\n1;;3\n\n';
    expect(parseCsv(text, ';', true)).toEqual([
      ['a', 'b', 'c'],
      ['x;y', 'say "hi"', 'two\r\nlines'],
      ['1', '', '3'],
    ]);
  });

  it('takes any character of the separator, and keeps quotes when told to', () => {
    expect(parseCsv('a,b\tc', ',\t', true)).toEqual([['a', 'b', 'c']]);
    expect(parseCsv('"a";b', ';', false)).toEqual([['"a"', 'b']]);
    expect(parseCsv('\uFEFFa;b\rc;d', ';', true)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('refuses an unclosed quote and input past its limits', () => {
    expect(() => parseCsv('a;"b\nc', ';', true)).toThrow(/not closed/);
    const limits = { ...DEFAULT_CSV_LIMITS, maxRows: 2, maxColumns: 3, maxFieldLength: 5, maxBytes: 100 };
    expect(() => parseCsv('1\n2\n3\n', ';', true, limits)).toThrow(/more than 2 rows/);
    expect(() => parseCsv('1;2;3;4', ';', true, limits)).toThrow(/more than 3 fields/);
    expect(() => parseCsv('123456', ';', true, limits)).toThrow(/longer than 5/);
    expect(() => parseCsv('"123456"', ';', true, limits)).toThrow(TemplateError);
    expect(() => parseCsv('x'.repeat(101), ';', true, limits)).toThrow(/larger than 100/);
  });
});

describe('csvOptions', () => {
  it('has FastReport defaults', () => {
    expect(csvOptions('')).toEqual({
      separator: ';',
      fieldNamesInFirstString: false,
      removeQuotationMarks: true,
      convertFieldTypes: true,
      csvFile: '',
    });
  });
  it('reads the keys', () => {
    const o = csvOptions(
      'CsvFile=data\\s.csv;Codepage=1252;Separator=",";FieldNamesInFirstString=true;ConvertFieldTypes=false',
    );
    expect(o).toMatchObject({ csvFile: 'data\\s.csv', codepage: 1252, separator: ',', fieldNamesInFirstString: true });
    expect(o.convertFieldTypes).toBe(false);
    expect(decodeCsvBytes(Uint8Array.of(0x63, 0x61, 0x66, 0xe9), 1252)).toBe('café');
  });
});

describe('csvTable', () => {
  it('names columns from the header and guesses their types', () => {
    const opts = { ...csvOptions(''), separator: ',', fieldNamesInFirstString: true };
    const t = csvTable('T', 'ID,Price,Name\n1,2.5,"A, Inc."\n2,3,\n', opts);
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['ID', 'System.Int32'],
      ['Price', 'System.Double'],
      ['Name', 'System.String'],
    ]);
    expect(t.rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      [1, 2.5, 'A, Inc.'],
      [2, 3, ''],
    ]);
    expect(t.name).toBe('T');
  });

  it("names them Field0… without a header; the template's declared types win", () => {
    const t = csvTable('T', '1;x\n2;y', csvOptions(''), [{ name: 'Field0', dataType: 'System.String' }]);
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['Field0', 'System.String'],
      ['Field1', 'System.String'],
    ]);
    expect(t.rows[1]?.[0]).toBe('2');
  });
});
