// Which templates fit an SRS definition: the ones it names, else those whose data dictionary
// names its commands, best fit first; a template of other data (or no readable template) fits none.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSrsDefinition, SrsDefinitionError } from '../../src/srs/definition/parse.js';
import { dictionaryNames, fittingTemplates, TemplateDictionaries, templateFit } from '../../src/srs/template-fit.js';
import { TemplateResolver } from '../../src/srs/templates.js';
import { tmpdir } from 'node:os';

const DEMO = join(import.meta.dirname, '../../apps/demo');

/** A template whose dictionary has a JSON table per name in `tables` and an object per name in `objects`. */
function frx(tables: string[], objects: string[] = []): string {
  const table = (n: string) =>
    `<JsonTableDataSource Name="${n}" DataType="FastReport.JsonBase">` +
    '<Column Name="item" DataType="FastReport.JsonBase"><Column Name="x" DataType="System.String"/></Column>' +
    '</JsonTableDataSource>';
  const object = (n: string) => `<Column Name="${n}" DataType="FastReport.JsonBase"/>`;
  return (
    '<Report><Dictionary><JsonDataSourceConnection Name="Connection"><JsonTableDataSource Name="JSON">' +
    '<Column Name="item" DataType="FastReport.JsonBase">' +
    objects.map(object).join('') +
    tables.map(table).join('') +
    '</Column></JsonTableDataSource></JsonDataSourceConnection></Dictionary><ReportPage Name="Page1"/></Report>'
  );
}

const commandXml = (name: string) => `<itm model="command" name="${name}">SELECT 1 AS x</itm>`;
const definition = (commands: string[], attrs = '') =>
  parseSrsDefinition('1', 'srs/1.xml', `<srs ${attrs}><def>${commands.map(commandXml).join('')}</def></srs>`);

describe('dictionaryNames', () => {
  it('reads the data sources and object columns of the dictionary, not structural names or plain columns', () => {
    expect([...dictionaryNames(frx(['lines'], ['invoice', 'totals']))].sort()).toEqual(['invoice', 'lines', 'totals']);
  });
  it("also reads the bands' DataSource and the JSON.item paths of expressions", () => {
    const template =
      '<Report><ReportPage><DataBand DataSource="Matches"><TextObject Text="[JSON.item.echo.n] [JSON.item.x]"/>' +
      '</DataBand></ReportPage><Parameters><Parameter Expression="JSON.item.totals.net"/></Parameters></Report>';
    expect([...dictionaryNames(template)].sort()).toEqual(['echo', 'matches', 'totals', 'x']);
  });
  it('is empty for a template without data names, malformed XML or a DTD (no error)', () => {
    expect(dictionaryNames('<Report/>').size).toBe(0);
    expect(dictionaryNames('<Report><Dictionary>').size).toBe(0);
    expect(dictionaryNames('<!DOCTYPE r [<!ENTITY x "y">]><Report/>').size).toBe(0);
    expect(dictionaryNames(Buffer.from([0xff, 0xfe, 0x00, 0x01])).size).toBe(0);
  });
});

describe('templateFit and fittingTemplates', () => {
  it('a template that names none of the commands does not fit', () => {
    expect(templateFit('t', dictionaryNames(frx(['customers'])), definition(['orders']))).toBeNull();
  });

  it('orders by commands matched, then by fewer names of other data, then by name', () => {
    const def = definition(['header', 'lines']);
    const names = new Map([
      ['both-and-more', dictionaryNames(frx(['lines', 'extra'], ['header']))],
      ['both', dictionaryNames(frx(['lines'], ['header']))],
      ['lines-only', dictionaryNames(frx(['lines']))],
      ['a-lines-only', dictionaryNames(frx(['LINES']))],
      ['other', dictionaryNames(frx(['customers']))],
      ['blank', dictionaryNames('<Report/>')],
    ]);
    expect(fittingTemplates(def, [...names.keys()], (t) => names.get(t)!)).toEqual([
      'both',
      'both-and-more',
      'a-lines-only',
      'lines-only',
    ]);
  });

  it('a definition that names its templates gets those, in its order, when the app has them', () => {
    const def = definition(['rows'], 'templates="second, first,missing"');
    expect(def.templates).toEqual(['second', 'first', 'missing']);
    const none = () => new Set<string>();
    expect(fittingTemplates(def, ['first', 'other', 'second'], none)).toEqual(['second', 'first']);
  });

  it('refuses a templates attribute that names no possible template', () => {
    for (const bad of ['../x', 'a/b', '.hidden'])
      expect(() => definition(['rows'], `templates="${bad}"`)).toThrow(SrsDefinitionError);
  });

  it('each demo definition fits its own template first, by data names alone', async () => {
    const resolver = new TemplateResolver();
    const templates = await resolver.list(DEMO);
    const names = await new TemplateDictionaries().namesOf(DEMO, templates);
    const own: Record<string, string> = {
      '1-invoice.xml': 'invoice',
      '2-sales-by-customer.xml': 'sales-by-customer',
      '3-customer-directory.xml': 'customer-directory',
    };
    for (const file of readdirSync(join(DEMO, 'srs'))) {
      // The attribute removed, so that the data names decide.
      const text = readFileSync(join(DEMO, 'srs', file), 'utf8').replace(/ templates="[^"]*"/, '');
      const def = parseSrsDefinition(file.split('-')[0]!, `srs/${file}`, text);
      expect(def.templates).toEqual([]);
      expect(
        fittingTemplates(def, templates, (t) => names.get(t)!),
        file,
      ).toEqual([own[file]]);
    }
  });
});

describe('TemplateDictionaries', () => {
  it('reads a template again when it changes, and never reads a symlink', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'template-fit-'));
    mkdirSync(join(dir, 'templates'));
    const file = join(dir, 'templates', 'a.frx');
    writeFileSync(file, frx(['rows']));
    writeFileSync(join(dir, 'outside.frx'), frx(['rows']));
    symlinkSync(join(dir, 'outside.frx'), join(dir, 'templates', 'link.frx'));
    const dictionaries = new TemplateDictionaries();
    const first = await dictionaries.namesOf(dir, ['a', 'link', 'gone']);
    expect([...first.get('a')!]).toEqual(['rows']);
    expect(first.get('link')!.size).toBe(0);
    expect(first.get('gone')!.size).toBe(0);
    writeFileSync(file, frx(['orders', 'customers_of_the_month']));
    expect([...(await dictionaries.namesOf(dir, ['a'])).get('a')!].sort()).toEqual([
      'customers_of_the_month',
      'orders',
    ]);
  });
});
