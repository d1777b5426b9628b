// Test helper: the <Dictionary> of an .frx file as the data layer's plain input objects (the
// real .frx loader lives elsewhere; these tests must not depend on it).

import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import type {
  ColumnInput,
  DictionaryInput,
  JsonConnectionInput,
  RelationInput,
  TableDataSourceInput,
} from '../../../src/report/data/index.js';
import { DEMO_REPORTS_URL } from '../../support/fastreport-demos.js';

export const FIXTURES = DEMO_REPORTS_URL;

interface MutableColumn {
  name: string;
  alias?: string;
  dataType?: string;
  propName?: string;
  enabled?: boolean;
  calculated?: boolean;
  expression?: string;
  table?: boolean;
  columns: MutableColumn[];
}

export function parseDictionary(xml: string): DictionaryInput {
  const p = new SaxesParser({});
  const dataSources: TableDataSourceInput[] = [];
  const relations: RelationInput[] = [];
  const jsonConnections: JsonConnectionInput[] = [];
  const stack: MutableColumn[] = [];
  let inDictionary = false;
  let conn: { name: string; connectionString?: string; tables: TableDataSourceInput[] } | undefined;
  p.on('opentag', (t) => {
    const a = t.attributes as Record<string, string>;
    if (t.name === 'Dictionary') {
      inDictionary = true;
      return;
    }
    if (!inDictionary) return;
    const col = (): MutableColumn => ({
      name: a.Name ?? '',
      ...(a.Alias !== undefined ? { alias: a.Alias } : {}),
      ...(a.DataType !== undefined ? { dataType: a.DataType } : {}),
      ...(a.PropName !== undefined ? { propName: a.PropName } : {}),
      ...(a.Enabled !== undefined ? { enabled: a.Enabled !== 'false' } : {}),
      ...(a.Calculated === 'true' ? { calculated: true, expression: a.Expression ?? '' } : {}),
      columns: [],
    });
    if (t.name === 'JsonDataSourceConnection') {
      conn = {
        name: a.Name ?? '',
        tables: [],
        ...(a.ConnectionString !== undefined ? { connectionString: a.ConnectionString } : {}),
      };
    } else if (t.name === 'TableDataSource' || t.name === 'JsonTableDataSource') {
      if (stack.length > 0) {
        const c = { ...col(), table: true };
        (stack[stack.length - 1] as MutableColumn).columns.push(c);
        stack.push(c);
      } else {
        stack.push({
          ...col(),
          ...(a.ReferenceName !== undefined ? { referenceName: a.ReferenceName } : {}),
          ...(a.TableName !== undefined ? { tableName: a.TableName } : {}),
        });
      }
    } else if (t.name === 'Column') {
      const c = col();
      (stack[stack.length - 1] as MutableColumn).columns.push(c);
      stack.push(c);
    } else if (t.name === 'Relation') {
      relations.push({
        name: a.Name ?? '',
        parentDataSource: a.ParentDataSource ?? '',
        childDataSource: a.ChildDataSource ?? '',
        parentColumns: a.ParentColumns ?? '',
        childColumns: a.ChildColumns ?? '',
        ...(a.ReferenceName !== undefined ? { referenceName: a.ReferenceName } : {}),
        ...(a.Enabled !== undefined ? { enabled: a.Enabled !== 'false' } : {}),
      });
    }
  });
  p.on('closetag', (t) => {
    if (t.name === 'Dictionary') {
      inDictionary = false;
      return;
    }
    if (!inDictionary) return;
    if (t.name === 'JsonDataSourceConnection' && conn) {
      jsonConnections.push(conn);
      conn = undefined;
    } else if (t.name === 'TableDataSource' || t.name === 'JsonTableDataSource' || t.name === 'Column') {
      const c = stack.pop();
      if (stack.length === 0 && c) {
        const ds = c as unknown as TableDataSourceInput;
        if (conn) conn.tables.push(ds);
        else dataSources.push(ds);
      }
    }
  });
  p.write(xml).close();
  return { dataSources, relations, jsonConnections };
}

export function fixtureDictionary(file: string): DictionaryInput {
  return parseDictionary(readFileSync(new URL(file, FIXTURES), 'utf8'));
}

export type { ColumnInput };
