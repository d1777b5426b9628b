// .frx template → ReportModel. Refuses unusable input with a TemplateError; everything else the
// engine can live without (unknown elements, unsupported objects, scripts) becomes a warning.

import { TemplateError } from '../errors.js';
import { parseBorder, parseFill } from './appearance.js';
import { defaultFill, defaultFont, defaultTextFill } from './defaults.js';
import { parseDialogPage } from './dialog.js';
import { emptyDictionary, parseDictionary } from './dictionary.js';
import type {
  BandModel,
  MapObjectModel,
  ReportInfoModel,
  ReportModel,
  ReportObjectModel,
  ReportPageModel,
  StyleModel,
} from './model.js';
import { loadCsvFiles, loadMapShapefiles, type ResourceReader } from './map.js';
import { parsePage } from './page.js';
import { parseInvariantDate } from './value-parsers.js';
import { Attrs, clip, describe, LoadContext } from './values.js';
import { resolveInheritance, type BaseReportReader } from './inherit.js';
import { parseXmlText, readXmlText, type XmlElement, type XmlLimits } from './xml.js';

export interface LoadFrxOptions extends Partial<XmlLimits> {
  /** Also return the parsed XML tree (for writing the template back). */
  keepXml?: boolean;
  /** Reads an inherited report's base (BaseReport, a file in the template's folder). Without
   *  it an inherited report cannot load. */
  baseReport?: BaseReportReader;
  /** Reads the files a template names beside it (map layers' shapefiles); without it a map is
   *  drawn without the shapes of its shapefiles (with a warning). */
  resource?: ResourceReader;
}

export interface LoadFrxResult {
  report: ReportModel;
  warnings: string[];
  /** The parsed XML, when `keepXml` was set (an inherited report's with its bases applied). */
  xml?: XmlElement;
  /** An inherited report's base report files, nearest first. */
  bases?: string[];
}

/** Loads a .frx template (text, or bytes: UTF-8/UTF-16 with BOM, optionally gzip-compressed). */
export function loadFrx(input: Buffer | Uint8Array | string, opts: LoadFrxOptions = {}): LoadFrxResult {
  const { keepXml, baseReport, resource, ...limits } = opts;
  const read = readXmlText(input, limits);
  // FastReport's Crypter marks password-protected report streams with "rij".
  if (read.text.startsWith('rij')) {
    throw new TemplateError('password-protected (encrypted) reports are not supported', 'input');
  }
  const doc = parseXmlText(read.text, limits);
  const ctx = new LoadContext();
  for (const w of [...read.warnings, ...doc.warnings]) ctx.warn(w);
  const resolved = resolveInheritance(doc.root, baseReport, limits);
  for (const w of resolved.warnings) ctx.warn(w);
  const report = parseReport(resolved.root, ctx);
  const maps = report.pages.flatMap(allObjects).filter((o): o is MapObjectModel => o.type === 'MapObject');
  if (maps.length > 0) loadMapShapefiles(maps, resource, ctx);
  loadCsvFiles(report.dictionary.connections, resource, ctx);
  report.compressed = report.compressed || read.compressed;
  const eventWarning = ctx.eventWarning();
  if (eventWarning) ctx.warn(eventWarning);
  const result: LoadFrxResult = { report, warnings: [...ctx.warnings.list] };
  if (keepXml) result.xml = resolved.root;
  if (resolved.bases.length > 0) result.bases = resolved.bases;
  return result;
}

function readReportInfo(a: Attrs): ReportInfoModel {
  const created = a.str('ReportInfo.Created');
  const modified = a.str('ReportInfo.Modified');
  return {
    name: a.str('ReportInfo.Name'),
    author: a.str('ReportInfo.Author'),
    description: a.str('ReportInfo.Description'),
    version: a.str('ReportInfo.Version'),
    created,
    modified,
    createdDate: created ? parseInvariantDate(created) : null,
    modifiedDate: modified ? parseInvariantDate(modified) : null,
    creatorVersion: a.str('ReportInfo.CreatorVersion'),
  };
}

function parseStyles(el: XmlElement, ctx: LoadContext): StyleModel[] {
  const out: StyleModel[] = [];
  for (const child of el.children) {
    if (child.name !== 'Style') {
      ctx.warn(`${describe(child)} inside <Styles> is ignored`);
      continue;
    }
    const a = new Attrs(child, ctx);
    const s: StyleModel = {
      name: a.str('Name'),
      line: child.line,
      border: parseBorder(a),
      fill: parseFill(a, 'Fill', defaultFill()),
      textFill: parseFill(a, 'TextFill', defaultTextFill()),
      font: a.font('Font', defaultFont()),
      applyBorder: a.bool('ApplyBorder', true),
      applyFill: a.bool('ApplyFill', true),
      applyTextFill: a.bool('ApplyTextFill', true),
      applyFont: a.bool('ApplyFont', true),
      raw: {},
    };
    s.raw = a.rest();
    if (out.some((o) => o.name === s.name)) ctx.warn(`${describe(child)}: a style of this name already exists`);
    out.push(s);
  }
  return out;
}

/** The default script FastReport writes into every new report: an empty ReportScript class. */
function isEmptyScript(script: string): boolean {
  return /class\s+ReportScript\s*\{\s*\}/.test(script) && !/\b(void|return|=>)\b/.test(script);
}

function parseReport(root: XmlElement, ctx: LoadContext): ReportModel {
  if (root.name !== 'Report') {
    throw new TemplateError(
      `the root element is <${clip(root.name, 40)}>, not <Report>: not a FastReport template`,
      `line ${root.line}`,
    );
  }
  const a = new Attrs(root, ctx, 'Report');
  const report: ReportModel = {
    reportInfo: readReportInfo(a),
    scriptLanguage: a.str('ScriptLanguage', 'CSharp'),
    scriptText: null,
    convertNulls: a.bool('ConvertNulls', true),
    doublePass: a.bool('DoublePass', false),
    compressed: a.bool('Compressed', false),
    textQuality: a.str('TextQuality', 'Default'),
    smoothGraphics: a.bool('SmoothGraphics', false),
    initialPageNumber: a.int('InitialPageNumber', 1),
    maxPages: a.int('MaxPages', 0),
    printSettings: {
      copies: a.int('PrintSettings.Copies', 1),
      copyNames: a
        .str('PrintSettings.CopyNames')
        .split(/\r\n|\r|\n/)
        .filter((n) => n !== ''),
    },
    events: a.events(),
    styles: [],
    dictionary: emptyDictionary(),
    pages: [],
    dialogs: [],
    raw: {},
  };
  let sawDictionary = false;
  for (const child of root.children) {
    switch (child.name) {
      case 'ScriptText':
        report.scriptText = child.text;
        break;
      case 'Styles':
        report.styles.push(...parseStyles(child, ctx));
        break;
      case 'Dictionary':
        if (sawDictionary) ctx.warn(`${describe(child)}: a second dictionary replaces the first`);
        sawDictionary = true;
        report.dictionary = parseDictionary(child, ctx);
        break;
      case 'ReportPage':
        report.pages.push(parsePage(child, ctx));
        break;
      case 'DialogPage':
        report.dialogs.push(parseDialogPage(child, ctx));
        break;
      default:
        ctx.warn(`Unknown element ${describe(child)} in the report is ignored`);
    }
  }
  report.raw = a.rest();
  if (
    report.scriptText !== null &&
    report.scriptLanguage.toLowerCase() !== 'csharp' &&
    !isEmptyScript(report.scriptText)
  )
    ctx.warn(`ScriptText (${report.scriptLanguage}) is ignored: only C# report scripts are run`);
  if (report.pages.length === 0) ctx.warn('The report has no ReportPage');
  linkSubreports(report, ctx);
  return report;
}

/** Marks the pages that SubreportObjects print (FastReport does not print them on their own). */
function linkSubreports(report: ReportModel, ctx: LoadContext): void {
  const byName = new Map<string, ReportPageModel>(report.pages.map((p) => [p.name, p]));
  for (const page of report.pages) {
    for (const obj of allObjects(page)) {
      if (obj.type !== 'SubreportObject') continue;
      const target = byName.get(obj.reportPageName);
      if (target && target !== page) target.subreportOf = obj.name;
      else if (target) ctx.warn(`SubreportObject "${obj.name}": it cannot print its own page; it is ignored`);
      else ctx.warn(`SubreportObject "${obj.name}": its ReportPage "${obj.reportPageName}" does not exist`);
    }
  }
}

/** Every band of a page, depth first in template order (children and nested bands included). */
export function allBands(page: ReportPageModel): BandModel[] {
  const out: BandModel[] = [];
  const stack: BandModel[] = [];
  const push = (b: BandModel | null): void => {
    if (b) stack.push(b);
  };
  const top = [
    page.reportTitle,
    page.pageHeader,
    page.columnHeader,
    ...page.bands,
    page.reportSummary,
    page.columnFooter,
    page.pageFooter,
    page.overlay,
  ];
  for (let i = top.length - 1; i >= 0; i--) push(top[i] ?? null);
  while (stack.length > 0) {
    const b = stack.pop() as BandModel;
    out.push(b);
    const next: (BandModel | null)[] = [];
    if (b.type === 'DataBand') next.push(b.header, ...b.bands, b.footer);
    if (b.type === 'GroupHeaderBand') next.push(b.header, b.nestedGroup, b.data, b.groupFooter, b.footer);
    next.push(b.child);
    for (let i = next.length - 1; i >= 0; i--) push(next[i] ?? null);
  }
  return out;
}

/** Every report object on a page. */
export function allObjects(page: ReportPageModel): ReportObjectModel[] {
  return allBands(page).flatMap((b) => b.objects);
}
