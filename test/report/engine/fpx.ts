// Reading FastReport's own prepared reports (.fpx: the Avalonia viewer's three in
// test/fixtures/fastreport/AvaloniaViewer), for comparing our prepared pages with FastReport's.
//
// The .fpx format (FastReport.Base/Preview: PreparedPages, PreparedPage, SourcePages, Dictionary):
// gzip-compressed XML, root <preparedreport> with the ReportInfo.* attributes and
// - <sourcepages>: the template's ReportPages as prepared (full object definitions, minus the
//   references to data sources and relations);
// - <dictionary>: aliases (<t1 name="Page0.Text1"/>) → "Page<i>.<object name>" in the source pages;
// - <pages>: one element per prepared page (named by the page's alias), holding the printed bands
//   and, inside each band, its objects; every element is named by its alias and carries only the
//   properties that differ from its source object, with Left/Top/Width/Height/Text shortened to
//   l/t/w/h/x. A band's Left/Top are measured from the printable area (inside the page margins),
//   an object's from its band.

import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';

// ---------------------------------------------------------------------------------------------
// A small XML tree (saxes, independent of the template loader in src/report/frx).

export interface Xml {
  name: string;
  attrs: Record<string, string>;
  children: Xml[];
  text: string;
}

export function parseXmlTree(text: string): Xml {
  const parser = new SaxesParser();
  const top: Xml = { name: '', attrs: {}, children: [], text: '' };
  const stack: Xml[] = [top];
  parser.on('opentag', (t) => {
    const el: Xml = { name: t.name, attrs: { ...(t.attributes as Record<string, string>) }, children: [], text: '' };
    stack[stack.length - 1]!.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => void (stack[stack.length - 1]!.text += t));
  parser.on('cdata', (t) => void (stack[stack.length - 1]!.text += t));
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(text.replace(/^\uFEFF/, '')).close();
  const root = top.children[0];
  if (!root) throw new Error('no root element');
  return root;
}

const escapeXml = (s: string, attr: boolean): string =>
  s.replace(/[&<>"\r\n\t]/g, (c) =>
    c === '&'
      ? '&amp;'
      : c === '<'
        ? '&lt;'
        : c === '>'
          ? '&gt;'
          : !attr
            ? c
            : c === '"'
              ? '&quot;'
              : `&#${c.charCodeAt(0)};`,
  );

export function serializeXml(el: Xml): string {
  const attrs = Object.entries(el.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v, true)}"`)
    .join('');
  const body = el.text.trim() === '' ? '' : escapeXml(el.text, false);
  if (el.children.length === 0 && body === '') return `<${el.name}${attrs}/>`;
  return `<${el.name}${attrs}>${body}${el.children.map(serializeXml).join('\n')}</${el.name}>`;
}

/** Every element of the tree, depth first (the element itself first). */
export function descendants(el: Xml): Xml[] {
  return [el, ...el.children.flatMap(descendants)];
}

// ---------------------------------------------------------------------------------------------
// The prepared report.

/** One printed object (or band) of a prepared page, in paper coordinates (px, margins included). */
export interface FpxObject {
  /** The source object's name and element (TextObject, DataBand, BarcodeObject, …). */
  name: string;
  type: string;
  /** The band it is printed in (its own name for a band). */
  band: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** The text as printed (TextObject): the prepared value, else the source object's. */
  text: string | undefined;
  /** The source object's Text (the template's expression). */
  sourceText: string | undefined;
}

export interface FpxPage {
  /** Margins in px (FastReport stores millimetres; 1 mm = 3.78 px). */
  margins: { left: number; top: number; right: number; bottom: number };
  /** The page's own attributes over its source page's (UnlimitedHeightValue, …). */
  attrs: Record<string, string>;
  /** Bands and objects in print order (a band, then its objects). */
  objects: FpxObject[];
}

export interface FpxReport {
  /** The <preparedreport> attributes (ReportInfo.*). */
  info: Record<string, string>;
  /** The <ReportPage> elements of <sourcepages>. */
  sourcePages: Xml[];
  pages: FpxPage[];
}

const SHORT: Record<string, string> = { l: 'Left', t: 'Top', w: 'Width', h: 'Height', x: 'Text' };
const MM = 3.78;

function num(v: string | undefined, what: string): number {
  if (v === undefined) return 0;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${what}: not a number: ${v}`);
  return n;
}

/** Reads a .fpx file (gzip-compressed or plain XML). */
export function readFpx(bytes: Buffer): FpxReport {
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  const root = parseXmlTree(text);
  if (root.name !== 'preparedreport') throw new Error(`not a prepared report: <${root.name}>`);
  const section = (name: string): Xml => {
    const s = root.children.find((c) => c.name === name);
    if (!s) throw new Error(`no <${name}> in the prepared report`);
    return s;
  };
  const sourcePages = section('sourcepages').children;

  // "Page0.Text1" → the source element, as FastReport's SourceNameFinder (first of a name wins).
  const sources = new Map<string, Xml>();
  sourcePages.forEach((page, i) => {
    sources.set(`Page${i}`, page);
    for (const el of descendants(page).slice(1)) {
      const key = `Page${i}.${el.attrs.Name}`;
      if (el.attrs.Name !== undefined && !sources.has(key)) sources.set(key, el);
    }
  });
  const aliases = new Map<string, Xml>();
  for (const d of section('dictionary').children) {
    const src = sources.get(d.attrs.name ?? '');
    if (!src) throw new Error(`dictionary entry ${d.name} names ${d.attrs.name}, not in the source pages`);
    aliases.set(d.name, src);
  }

  /** The source element of an alias, and its properties with the prepared ones over them. */
  const resolve = (el: Xml): { src: Xml; props: Record<string, string> } => {
    const src = aliases.get(el.name);
    if (!src) throw new Error(`<${el.name}> is not in the dictionary`);
    const props = { ...src.attrs };
    for (const [k, v] of Object.entries(el.attrs)) props[SHORT[k] ?? k] = v;
    return { src, props };
  };

  const pages = section('pages').children.map((pageEl): FpxPage => {
    const { props } = resolve(pageEl);
    const mm = (k: string): number => (props[k] === undefined ? 10 : num(props[k], k)) * MM;
    const margins = {
      left: mm('LeftMargin'),
      top: mm('TopMargin'),
      right: mm('RightMargin'),
      bottom: mm('BottomMargin'),
    };
    const objects: FpxObject[] = [];
    const walk = (el: Xml, x0: number, y0: number, band: string | undefined): void => {
      const { src, props: p } = resolve(el);
      const name = p.Name ?? el.name;
      const left = x0 + num(p.Left, `${name}.Left`);
      const top = y0 + num(p.Top, `${name}.Top`);
      objects.push({
        name,
        type: src.name,
        band: band ?? name,
        left,
        top,
        width: num(p.Width, `${name}.Width`),
        height: num(p.Height, `${name}.Height`),
        text: src.name === 'TextObject' ? (p.Text ?? '') : undefined,
        sourceText: src.attrs.Text,
      });
      for (const c of el.children) walk(c, left, top, band ?? name);
    };
    for (const bandEl of pageEl.children) walk(bandEl, margins.left, margins.top, undefined);
    return { margins, attrs: props, objects };
  });
  return { info: { ...root.attrs }, sourcePages, pages };
}

// ---------------------------------------------------------------------------------------------
// The template as FastReport prepared it.

/** Object references FastReport's source-page copy drops (FRWriter.WriteRef on a copy made
 *  without the report's dictionary): taken back from the template. */
const REFERENCE_ATTRS = ['DataSource', 'Relation', 'BreakTo'];

const short = (v: string | undefined): string =>
  v === undefined ? 'absent' : JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

export interface PreparedTemplate {
  /** The template text to run. */
  text: string;
  /** How the template differs from what the .fpx was prepared from (one line per difference). */
  drift: string[];
}

/**
 * The template the .fpx was prepared from: `frx` (for its dictionary, styles, script and the
 * references above) with its ReportPages replaced by the .fpx's source pages and its
 * ReportInfo.* by the .fpx's. `drift` lists what that changed.
 */
export function templateAsPrepared(frx: Buffer | string, fpx: FpxReport): PreparedTemplate {
  const report = parseXmlTree(typeof frx === 'string' ? frx : frx.toString('utf8'));
  const drift: string[] = [];

  for (const [k, v] of Object.entries(fpx.info)) {
    if (!k.startsWith('ReportInfo.')) continue;
    if (report.attrs[k] !== v) drift.push(`Report: ${k} ${short(report.attrs[k])} → ${short(v)}`);
    report.attrs[k] = v;
  }

  const oldPages = report.children.filter((c) => c.name === 'ReportPage');
  const first = report.children.findIndex((c) => c.name === 'ReportPage');
  if (first < 0) throw new Error('the template has no ReportPage');
  const byName = new Map<string, Xml>();
  for (const el of oldPages.flatMap(descendants)) if (el.attrs.Name !== undefined) byName.set(el.attrs.Name, el);

  const newPages = fpx.sourcePages.map((p) => structuredClone(p));
  const seen = new Set<string>();
  for (const el of newPages.flatMap(descendants)) {
    const name = el.attrs.Name;
    if (name === undefined) continue;
    seen.add(name);
    const old = byName.get(name);
    if (!old) {
      drift.push(`${name} (${el.name}): only in the .fpx source pages`);
      continue;
    }
    for (const k of REFERENCE_ATTRS)
      if (old.attrs[k] !== undefined && el.attrs[k] === undefined) el.attrs[k] = old.attrs[k]!;
    const changes: string[] = [];
    if (old.name !== el.name) changes.push(`element ${old.name} → ${el.name}`);
    for (const k of new Set([...Object.keys(old.attrs), ...Object.keys(el.attrs)])) {
      if (old.attrs[k] !== el.attrs[k]) changes.push(`${k} ${short(old.attrs[k])} → ${short(el.attrs[k])}`);
    }
    if (changes.length > 0) drift.push(`${name} (${el.name}): ${changes.join(', ')}`);
  }
  for (const [name, el] of byName) if (!seen.has(name)) drift.push(`${name} (${el.name}): only in the template`);

  report.children = [
    ...report.children.slice(0, first).filter((c) => c.name !== 'ReportPage'),
    ...newPages,
    ...report.children.slice(first).filter((c) => c.name !== 'ReportPage'),
  ];
  return { text: `<?xml version="1.0" encoding="utf-8"?>\n${serializeXml(report)}`, drift };
}
