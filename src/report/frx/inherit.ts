// Inherited reports (FastReport's report inheritance): a template whose root is <inherited
// BaseReport="file.frx"> stores only what it changes of its base report. Loading reads the base
// (from the template's folder, through the caller's reader), resolves the base's own base first,
// then applies the child over it, as FastReport's Report.Load does:
// - the child root's attributes replace the base root's (BaseReport itself is dropped);
// - <inherited Name="X" …> changes the base's object X: its attributes replace X's, and its
//   children are applied to X's children the same way;
// - any other element is a new object, inserted among its parent's children at its ZOrder;
//   <Dictionary> and <Styles> add to (or replace by name) what the base has, <ScriptText>
//   replaces the base's script.
// The result is one plain <Report> tree, loaded as any template.

import { TemplateError } from '../errors.js';
import { parseXmlText, readXmlText, type XmlElement, type XmlLimits } from './xml.js';

/** Reads a base report named by BaseReport (a file name in the template's folder); undefined
 *  when there is no such file. */
export type BaseReportReader = (fileName: string) => Buffer | Uint8Array | string | undefined;

/** True for a plain file name (no folder part, no drive): what a template may name beside it. */
export function isFolderFileName(name: string): boolean {
  return /^[^/\\:]+$/.test(name) && name !== '.' && name !== '..';
}

/** How many bases deep an inherited report may go (a base may itself be inherited). */
const MAX_BASES = 8;

export interface ResolvedTemplate {
  root: XmlElement;
  /** The base report files read, nearest first (a cache must check them too). */
  bases: string[];
  warnings: string[];
}

export const isInherited = (root: XmlElement): boolean =>
  root.name === 'inherited' || root.attrs.BaseReport !== undefined;

/** The template tree with its bases applied (unchanged when it has none). */
export function resolveInheritance(
  root: XmlElement,
  read: BaseReportReader | undefined,
  limits: Partial<XmlLimits>,
): ResolvedTemplate {
  const out: ResolvedTemplate = { root, bases: [], warnings: [] };
  out.root = resolve(root, read, limits, out);
  return out;
}

function resolve(
  root: XmlElement,
  read: BaseReportReader | undefined,
  limits: Partial<XmlLimits>,
  out: ResolvedTemplate,
): XmlElement {
  if (!isInherited(root)) return root;
  const name = root.attrs.BaseReport ?? '';
  const where = `line ${root.line}`;
  if (name === '') throw new TemplateError('an inherited report without a BaseReport', where);
  if (!isFolderFileName(name))
    throw new TemplateError(`the base report "${name}" must be a file name in the template's folder`, where);
  if (out.bases.includes(name)) throw new TemplateError(`the base report "${name}" inherits from itself`, where);
  if (out.bases.length >= MAX_BASES)
    throw new TemplateError(`the report inherits through more than ${MAX_BASES} base reports`, where);
  const bytes = read?.(name);
  if (bytes === undefined)
    throw new TemplateError(
      `the base report "${name}" cannot be found (an inherited report loads it from the template's folder)`,
      where,
    );
  out.bases.push(name);
  const text = readXmlText(bytes, limits);
  const doc = parseXmlText(text.text, limits);
  for (const w of [...text.warnings, ...doc.warnings]) out.warnings.push(`${name}: ${w}`);
  const base = resolve(doc.root, read, limits, out);
  if (base.name !== 'Report')
    throw new TemplateError(`the base report "${name}" is not a FastReport template`, `${name} line ${base.line}`);
  applyChanges(base, root, out, name);
  return base;
}

/** Elements of which a template has one, whose children add to the base's. */
const COLLECTIONS = new Set(['Dictionary', 'Styles']);

function applyChanges(target: XmlElement, changes: XmlElement, out: ResolvedTemplate, baseName: string): void {
  for (const [k, v] of Object.entries(changes.attrs)) if (k !== 'BaseReport') target.attrs[k] = v;
  for (const c of changes.children) {
    if (c.name === 'inherited') {
      const named = c.attrs.Name ?? '';
      const found = findNamed(target, named);
      // FastReport skips a change to an object the base no longer has.
      if (found) applyChanges(found, c, out, baseName);
      else
        out.warnings.push(
          `line ${c.line}: "${named}" is not in the base report "${baseName}"; its changes are ignored`,
        );
      continue;
    }
    const same =
      c.name === 'ScriptText' || COLLECTIONS.has(c.name) ? target.children.find((x) => x.name === c.name) : undefined;
    if (same && c.name === 'ScriptText') same.text = c.text;
    else if (same) addByName(same, c);
    else insertAt(target, c);
  }
}

/** The element named `name` under `parent`: a child first, else the first descendant. */
function findNamed(parent: XmlElement, name: string): XmlElement | undefined {
  const direct = parent.children.find((c) => c.attrs.Name === name);
  if (direct) return direct;
  for (const c of parent.children) {
    const deep = findNamed(c, name);
    if (deep) return deep;
  }
  return undefined;
}

/** A dictionary's or style sheet's entries: one of the same name is replaced, others added. */
function addByName(target: XmlElement, from: XmlElement): void {
  for (const c of from.children) {
    const i = c.attrs.Name === undefined ? -1 : target.children.findIndex((x) => x.attrs.Name === c.attrs.Name);
    if (i >= 0) target.children[i] = c;
    else target.children.push(c);
  }
}

/** A new object goes where its ZOrder puts it among its siblings (at the end without one). */
function insertAt(parent: XmlElement, c: XmlElement): void {
  const z = Number(c.attrs.ZOrder);
  if (!Number.isInteger(z)) parent.children.push(c);
  else parent.children.splice(Math.max(0, Math.min(z, parent.children.length)), 0, c);
}
