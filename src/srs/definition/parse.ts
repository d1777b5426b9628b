// SRS definition XML → SrsDefinition, validated. The XML is read with the report library's safe
// reader (size and depth limits, no DTD, no entities beyond the predefined five), and every
// problem is reported with the file name and line, so whoever maintains the file can fix it.
//
//   <srs label="Invoice" culture="en-US" templates="invoice">
//     <def>
//       <itm model="param" name="order_id" type="int" label="Order number">1</itm>
//       <itm model="command" name="header" opts="dtsingle,required">SELECT … WHERE id = @order_id</itm>
//       <itm model="command" name="lines" acl="app_sales,app_administrator">SELECT …</itm>
//     </def>
//   </srs>
//
// Optional attributes for clients that build a report form:
// - `templates` on <srs>: comma-separated template names (files in the app's templates/ without
//   `.frx`) made for this definition, preferred first. Without it, the templates whose data
//   dictionary names the definition's commands are offered (template-fit.ts).
// - `label` on a param: what the form calls it ("Order number" rather than order_id).
import { getCulture, parseXml, TemplateError, type XmlElement } from '../../report/index.js';
import { bindNamedParameters } from '../../db/sql-text.js';
import {
  BUILTIN_PARAMS,
  PARAM_TYPES,
  RESERVED_QUERY_NAMES,
  SETUP_COMMAND,
  type ParamType,
  type SrsCommand,
  type SrsDefinition,
  type SrsParam,
} from './model.js';
import { checkParamValue } from '../params.js';
import { templateNameProblem } from '../templates.js';

export class SrsDefinitionError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line !== null ? ` line ${line}` : ''}: ${reason}`);
    this.name = 'SrsDefinitionError';
  }
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const ROLE = /^[A-Za-z0-9_.:-]{1,128}$/;
const KNOWN_OPTS = ['dtsingle', 'required'];
const MARKER_PREFIXES = ['@', ':'] as const;
const MAX_LABEL_LENGTH = 200;

export const SRS_XML_LIMITS = {
  maxInputBytes: 1024 * 1024,
  maxDepth: 16,
  maxElements: 10_000,
  maxAttributeValueLength: 64 * 1024,
};

const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function parseSrsDefinition(id: string, file: string, input: Buffer | string): SrsDefinition {
  const fail = (line: number | null, reason: string): never => {
    throw new SrsDefinitionError(file, line, reason);
  };
  let root: XmlElement;
  try {
    root = parseXml(input, SRS_XML_LIMITS).root;
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    const line = /^line (\d+)$/.exec(err.where ?? '');
    const reason = err.where ? err.message.slice(err.where.length + 2) : err.message;
    return fail(line ? Number(line[1]) : null, reason);
  }
  if (root.name !== 'srs') fail(root.line, `the root element must be <srs>, not <${root.name}>`);

  const warnings: string[] = [];
  const unknownAttrs = (el: XmlElement, known: readonly string[]) => {
    for (const a of Object.keys(el.attrs))
      if (!known.includes(a)) warnings.push(`line ${el.line}: attribute ${a} of <${el.name}> is not used`);
  };
  unknownAttrs(root, ['label', 'culture', 'templates']);
  const templates = list(root.attrs.templates);
  for (const t of templates) {
    const problem = templateNameProblem(t);
    if (problem) fail(root.line, `template name "${t.slice(0, 80)}" ${problem}`);
  }
  const culture = root.attrs.culture;
  if (culture !== undefined && culture !== '' && getCulture(culture) === undefined)
    fail(root.line, `culture "${culture}" is not supported`);

  const commands: SrsCommand[] = [];
  const params: SrsParam[] = [];
  let setup: SrsCommand | null = null;
  const defs = root.children.filter((c) => c.name === 'def');
  if (defs.length === 0) fail(root.line, '<srs> has no <def> element');
  for (const c of root.children) if (c.name !== 'def') warnings.push(`line ${c.line}: element <${c.name}> is not used`);

  for (const item of defs.flatMap((d) => d.children)) {
    if (item.name !== 'itm') {
      warnings.push(`line ${item.line}: element <${item.name}> is not used`);
      continue;
    }
    const model = item.attrs.model;
    const name = item.attrs.name ?? '';
    if (model !== 'command' && model !== 'param') {
      if (model === undefined) fail(item.line, '<itm> needs a model attribute ("command" or "param")');
      warnings.push(`line ${item.line}: <itm model="${model}"> is not a command or a param and is ignored`);
      continue;
    }
    if (!NAME.test(name))
      fail(
        item.line,
        `${model} name "${name.slice(0, 80)}" must be a letter followed by up to 63 letters, digits or _`,
      );
    if (model === 'command') {
      unknownAttrs(item, ['model', 'name', 'acl', 'opts']);
      const acl = list(item.attrs.acl);
      for (const role of acl)
        if (!ROLE.test(role)) fail(item.line, `command "${name}": acl role "${role.slice(0, 80)}" is not a role name`);
      const opts = list(item.attrs.opts).map((o) => o.toLowerCase());
      for (const o of opts)
        if (!KNOWN_OPTS.includes(o))
          fail(item.line, `command "${name}": unknown opt "${o.slice(0, 80)}" (known: ${KNOWN_OPTS.join(', ')})`);
      const sql = item.text.trim();
      if (sql === '') fail(item.line, `command "${name}" has no SQL`);
      const single = opts.includes('dtsingle');
      const required = opts.includes('required');
      if (required && !single)
        fail(item.line, `command "${name}": opt "required" needs "dtsingle" (it means: the one row must exist)`);
      const command: SrsCommand = { name, sql, acl, single, required, line: item.line };
      const isSetup = name.toLowerCase() === SETUP_COMMAND;
      const clash = isSetup ? setup : commands.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (clash) fail(item.line, `command "${name}" is defined twice (also on line ${clash.line})`);
      if (isSetup) setup = command;
      else commands.push(command);
    } else {
      unknownAttrs(item, ['model', 'name', 'type', 'label']);
      if (RESERVED_QUERY_NAMES.some((r) => r === name.toLowerCase()))
        fail(item.line, `param name "${name}" is reserved`);
      const type = (item.attrs.type ?? 'string').trim().toLowerCase() as ParamType;
      if (!PARAM_TYPES.includes(type))
        fail(item.line, `param "${name}": type "${item.attrs.type}" is not one of ${PARAM_TYPES.join(', ')}`);
      const text = item.text.trim();
      const defaultValue = text === '' ? null : text;
      if (defaultValue !== null) {
        const problem = checkParamValue(type, defaultValue);
        if (problem) fail(item.line, `param "${name}": default "${defaultValue.slice(0, 80)}" ${problem}`);
      }
      const clash = params.find((p) => p.name.toLowerCase() === name.toLowerCase());
      if (clash) fail(item.line, `param "${name}" is defined twice (also on line ${clash.line})`);
      const label = item.attrs.label?.trim() || null;
      if (label !== null && label.length > MAX_LABEL_LENGTH)
        fail(item.line, `param "${name}": label is longer than ${MAX_LABEL_LENGTH} characters`);
      params.push({ name, type, typed: item.attrs.type !== undefined, defaultValue, label, line: item.line });
    }
  }
  if (commands.length === 0) fail(root.line, 'the definition has no command (besides srssetup)');

  // Every marker must name a declared param: a typo would otherwise reach the database as text.
  const known = Object.fromEntries([...params.map((p) => p.name), ...BUILTIN_PARAMS].map((n) => [n, null]));
  for (const c of setup ? [setup, ...commands] : commands) {
    const { unknown } = bindNamedParameters(c.sql, known, { prefixes: MARKER_PREFIXES });
    if (unknown.length > 0)
      fail(
        c.line,
        `command "${c.name}" uses ${unknown.map((u) => `@${u}`).join(', ')}, ` +
          `which ${unknown.length === 1 ? 'is not a declared param' : 'are not declared params'}`,
      );
  }

  const label = root.attrs.label?.trim() || id;
  return {
    id,
    file,
    label,
    culture: culture || undefined,
    setup,
    commands,
    params,
    templates: [...new Set(templates)],
    warnings,
  };
}
