// ADO.NET DataSet XML (what DataSet.WriteXml(…, XmlWriteMode.WriteSchema) produces, e.g.
// nwind.xml): an inline XSD describing the tables and their typed columns, then one element per
// row. Read in one streaming pass with saxes: no DOM, no DTD, no custom entities, bounded
// size/depth/rows. Without an inline schema the tables and columns are inferred from the rows
// and every column is System.String, as ADO.NET infers them.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { TemplateError, type ReportWarnings } from '../errors.js';
import { decodeXmlName, type CellValue, type ColumnDef, type DataSet, type DataTable, type Row } from './table.js';
import { clip, fromText, hasSidecar, xsdToDotNet } from './values.js';
import { decodeXml } from './xml-input.js';

export interface DataSetXmlOptions {
  /** Largest input accepted, in bytes (default 64 MiB). */
  maxBytes?: number;
  /** Deepest element nesting accepted (default 32). */
  maxDepth?: number;
  /** Most rows accepted over all tables (default 1,000,000). */
  maxRows?: number;
  /** Most columns accepted in one table (default 1,000). */
  maxColumns?: number;
  /** Where non-fatal problems go (unknown row elements, columns not in the schema). */
  warnings?: ReportWarnings;
  /** Names the file in error messages (default "DataSet XML"). */
  source?: string;
}

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const MSDATA_NS = 'urn:schemas-microsoft-com:xml-msdata';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const DIFFGR_NS = 'urn:schemas-microsoft-com:xml-diffgram-v1';

interface ColumnSchema {
  elementName: string; // as written in rows (encoded)
  name: string; // decoded
  type: string; // .NET type
  xsdType: string | undefined; // local name of the XSD type, when known
  attribute: boolean; // mapped to an attribute of the row element
  typed: boolean; // type came from `type=`/msdata:DataType (a restriction base does not override it)
}

interface TableSchema {
  elementName: string;
  name: string;
  columns: ColumnSchema[];
  byElement: Map<string, number>;
  rows: CellValue[][];
}

type Frame = 'schema' | 'dataset' | 'container' | 'table' | 'tableBody' | 'column' | 'columnType' | 'skip';

/** Reads DataSet XML into typed tables. Throws TemplateError for malformed or hostile input. */
export function loadDataSetXml(input: Buffer | Uint8Array | string, opts: DataSetXmlOptions = {}): DataSet {
  const where = opts.source ?? 'DataSet XML';
  const maxDepth = opts.maxDepth ?? 32;
  const maxRows = opts.maxRows ?? 1_000_000;
  const maxColumns = opts.maxColumns ?? 1000;
  const text = decodeXml(input, opts.maxBytes ?? 64 * 1024 * 1024, where);

  const parser = new SaxesParser({ xmlns: true, position: true });
  const fail = (message: string): TemplateError => new TemplateError(`${message} (line ${parser.line})`, where);

  const tables = new Map<string, TableSchema>(); // by element name
  let datasetName = '';
  let depth = 0;
  let rowLevel = 2; // depth of row elements
  let schemaSeen = false;
  let inferred = false;
  let rowCount = 0;
  // schema state
  const frames: Frame[] = [];
  let schemaTable: TableSchema | undefined;
  let schemaColumn: ColumnSchema | undefined;
  // row state
  let rowTable: TableSchema | undefined;
  let rowValues: (string | undefined)[] | undefined;
  let rowDepth = 0;
  let cellIndex = -1;
  let cellText = '';
  let skipDepth = 0; // >0 while inside an element whose content is ignored

  const newTable = (elementName: string): TableSchema => {
    if (tables.size >= 10_000) throw fail('too many tables');
    const t: TableSchema = {
      elementName,
      name: decodeXmlName(elementName),
      columns: [],
      byElement: new Map(),
      rows: [],
    };
    tables.set(elementName, t);
    return t;
  };
  const addColumn = (t: TableSchema, c: ColumnSchema): void => {
    if (t.columns.length >= maxColumns) throw fail(`table "${t.name}" has too many columns`);
    if (!t.byElement.has(c.elementName)) t.byElement.set(c.elementName, t.columns.length);
    t.columns.push(c);
  };
  const attr = (tag: SaxesTagNS, local: string, uri = ''): string | undefined => {
    for (const a of Object.values(tag.attributes)) if (a.local === local && a.uri === uri) return a.value;
    return undefined;
  };
  const typeOf = (qname: string | undefined): { type: string; xsd: string | undefined } | undefined => {
    if (qname === undefined) return undefined;
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    if (parser.resolve(prefix) !== XSD_NS) return { type: 'System.String', xsd: undefined };
    return { type: xsdToDotNet(local), xsd: local };
  };
  const msdataType = (tag: SaxesTagNS): string | undefined => {
    const t = attr(tag, 'DataType', MSDATA_NS);
    return t === undefined ? undefined : (t.split(',')[0] ?? '').trim() || undefined;
  };

  parser.on('doctype', () => {
    throw fail('a DOCTYPE is not allowed in data files');
  });

  parser.on('opentag', (tag) => {
    depth++;
    if (depth > maxDepth) throw fail(`elements are nested too deeply (more than ${maxDepth})`);
    if (skipDepth > 0) {
      skipDepth++;
      return;
    }
    if (depth === 1) {
      datasetName = decodeXmlName(tag.local);
      // DataSet.WriteXml(…, DiffGram): <diffgr:diffgram><DataSetName>rows…</DataSetName>
      // <diffgr:before>old versions…</diffgr:before></diffgr:diffgram>
      if (tag.uri === DIFFGR_NS && tag.local === 'diffgram') rowLevel = 3;
      return;
    }
    if (rowLevel === 3 && depth === 2 && rowTable === undefined && frames.length === 0) {
      if (tag.uri === DIFFGR_NS)
        skipDepth = 1; // before/errors: not current rows
      else datasetName = decodeXmlName(tag.local);
      return;
    }

    if (frames.length > 0 || (tag.uri === XSD_NS && tag.local === 'schema')) {
      onSchemaTag(tag);
      return;
    }
    if (rowTable === undefined) {
      if (depth !== rowLevel) {
        skipDepth = 1;
        return;
      }
      let t = tables.get(tag.name);
      if (t === undefined) {
        if (schemaSeen) {
          opts.warnings?.add(`${where}: element <${tag.name}> is not a table of the schema; ignored`);
          skipDepth = 1;
          return;
        }
        inferred = true;
        t = newTable(tag.name);
      }
      if (++rowCount > maxRows) throw fail(`too many rows (more than ${maxRows})`);
      rowTable = t;
      rowDepth = depth;
      rowValues = new Array<string | undefined>(t.columns.length);
      for (const a of Object.values(tag.attributes)) {
        if (a.prefix === 'xmlns' || a.name === 'xmlns' || a.uri !== '') continue;
        const i = t.byElement.get(a.local);
        if (i !== undefined && t.columns[i]?.attribute) rowValues[i] = a.value;
      }
      return;
    }
    if (depth === rowDepth + 1) {
      if (attr(tag, 'nil', XSI_NS) === 'true') {
        cellIndex = -1;
        skipDepth = 1;
        return;
      }
      let i = rowTable.byElement.get(tag.name);
      if (i === undefined && inferred) {
        i = rowTable.columns.length;
        addColumn(rowTable, {
          elementName: tag.name,
          name: decodeXmlName(tag.name),
          type: 'System.String',
          xsdType: 'string',
          attribute: false,
          typed: true,
        });
      }
      if (i === undefined || rowTable.columns[i]?.attribute) {
        opts.warnings?.add(`${where}: <${tag.name}> is not a column of table "${rowTable.name}"; ignored`);
        skipDepth = 1;
        return;
      }
      cellIndex = i;
      cellText = '';
      return;
    }
    // markup inside a column value: its text still belongs to the value
  });

  function onSchemaTag(tag: SaxesTagNS): void {
    const parent = frames[frames.length - 1];
    const xs = tag.uri === XSD_NS;
    let frame: Frame = 'skip';
    if (parent === undefined) {
      if (schemaSeen) throw fail('more than one inline schema');
      if (tables.size > 0) throw fail('the inline schema must come before the rows');
      schemaSeen = true;
      frame = 'schema';
    } else if (parent === 'skip' || !xs) {
      frame = 'skip';
    } else if (parent === 'schema') {
      if (tag.local === 'element' && attr(tag, 'name') !== undefined) {
        if (attr(tag, 'IsDataSet', MSDATA_NS) === 'true') frame = 'dataset';
        else {
          frame = 'table';
          schemaTable = newTable(attr(tag, 'name') as string);
        }
      }
    } else if (parent === 'dataset' || parent === 'container') {
      if (tag.local === 'complexType' || tag.local === 'choice' || tag.local === 'sequence' || tag.local === 'all')
        frame = 'container';
      else if (tag.local === 'element' && attr(tag, 'name') !== undefined) {
        frame = 'table';
        schemaTable = newTable(attr(tag, 'name') as string);
      }
    } else if (parent === 'table' || parent === 'tableBody') {
      if (tag.local === 'complexType' || tag.local === 'sequence' || tag.local === 'all' || tag.local === 'choice')
        frame = 'tableBody';
      else if (parent === 'tableBody' && (tag.local === 'element' || tag.local === 'attribute') && schemaTable) {
        const name = attr(tag, 'name');
        if (name !== undefined) {
          const declared = msdataType(tag);
          const t = typeOf(attr(tag, 'type'));
          schemaColumn = {
            elementName: name,
            name: decodeXmlName(name),
            type: declared ?? t?.type ?? 'System.String',
            xsdType: t?.xsd,
            attribute: tag.local === 'attribute',
            typed: declared !== undefined || t !== undefined,
          };
          addColumn(schemaTable, schemaColumn);
          frame = 'column';
        }
      }
    } else if (parent === 'column' || parent === 'columnType') {
      if (tag.local === 'complexType' && parent === 'column') {
        throw fail(`nested tables in DataSet XML are not supported (column "${schemaColumn?.name ?? '?'}")`);
      }
      if (tag.local === 'simpleType' || tag.local === 'restriction') frame = 'columnType';
      if (tag.local === 'restriction' && schemaColumn && !schemaColumn.typed) {
        const t = typeOf(attr(tag, 'base'));
        if (t) {
          schemaColumn.type = t.type;
          schemaColumn.xsdType = t.xsd;
          schemaColumn.typed = true;
        }
      }
    }
    frames.push(frame);
  }

  const onText = (t: string): void => {
    if (cellIndex >= 0 && skipDepth === 0) cellText += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  parser.on('closetag', () => {
    const closing = depth--;
    if (skipDepth > 0) {
      skipDepth--;
      return;
    }
    if (frames.length > 0) {
      const f = frames.pop();
      if (f === 'table') schemaTable = undefined;
      if (f === 'column') schemaColumn = undefined;
      return;
    }
    if (rowTable === undefined || rowValues === undefined) return;
    if (closing === rowDepth + 1 && cellIndex >= 0) {
      rowValues[cellIndex] = cellText;
      cellIndex = -1;
      cellText = '';
    } else if (closing === rowDepth) {
      rowTable.rows.push(rowValues as CellValue[]); // converted in finish(): strings for now
      rowTable = undefined;
      rowValues = undefined;
    }
  });

  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof TemplateError) throw e;
    throw new TemplateError(`malformed XML: ${(e as Error).message}`, where);
  }
  return finish(datasetName, [...tables.values()], where);
}

/** Converts the collected lexical values into typed rows with sidecar slots. */
function finish(datasetName: string, schemas: TableSchema[], where: string): DataSet {
  const tables = new Map<string, DataTable>();
  for (const t of schemas) {
    const n = t.columns.length;
    let extra = n;
    const columns: ColumnDef[] = t.columns.map((c) => ({
      name: c.name,
      alias: c.name,
      type: c.type,
      ...(hasSidecar(c.type) ? { extra: extra++ } : {}),
    }));
    const width = extra;
    const rows: Row[] = new Array<Row>(t.rows.length);
    for (let r = 0; r < t.rows.length; r++) {
      const raw = t.rows[r] as unknown as (string | undefined)[];
      const row = new Array<CellValue>(width).fill(null);
      for (let i = 0; i < n; i++) {
        const s = raw[i];
        if (s === undefined) continue;
        const c = t.columns[i] as ColumnSchema;
        const def = columns[i] as ColumnDef;
        try {
          const v = fromText(s, c.type, c.xsdType);
          row[i] = v.value;
          if (def.extra !== undefined && v.extra !== undefined) row[def.extra] = v.extra as CellValue;
        } catch (e) {
          throw new TemplateError(
            `table "${t.name}", row ${r + 1}, column "${c.name}": ${(e as Error).message}`,
            where,
          );
        }
      }
      rows[r] = row;
    }
    if (tables.has(t.name)) throw new TemplateError(`table "${clip(t.name)}" is declared twice`, where);
    tables.set(t.name, { name: t.name, columns, rows });
  }
  return { name: datasetName, tables };
}
