// An SRS definition (docs/reports.md, Definitions): the commands whose rows feed a
// report, and the params those commands take.

export type ParamType = 'string' | 'int' | 'decimal' | 'bool' | 'date';

export const PARAM_TYPES: readonly ParamType[] = ['string', 'int', 'decimal', 'bool', 'date'];

export interface SrsParam {
  name: string;
  type: ParamType;
  /** Whether the file states the type (`type="string"` too): on PostgreSQL a typed param is
   *  bound as CAST(value AS <type>), so `@p IS NULL` works even when the value is NULL. */
  typed: boolean;
  /** The element's text; null when the element is empty (the param then binds NULL). */
  defaultValue: string | null;
  /** What a form calls the param (`label="Order number"`); null: the client humanises the name. */
  label: string | null;
  line: number;
}

export interface SrsCommand {
  name: string;
  sql: string;
  /** Roles of which the caller needs one to run the command; empty: everyone with the app. */
  acl: string[];
  /** `dtsingle`: the first row as one object (null without rows) instead of an array. */
  single: boolean;
  /** `required` (with dtsingle): no row is a 404 `record_not_found` naming the command, not a
   *  report of blanks. */
  required: boolean;
  line: number;
}

export interface SrsDefinition {
  id: string;
  /** The file name inside `srs/`, e.g. `1-invoice.xml`. */
  file: string;
  label: string;
  /** Culture for number and date formats in the report (`<srs culture="de-DE">`); default en-US. */
  culture: string | undefined;
  /** `srssetup`, when defined: runs first, its rows are not part of the data. */
  setup: SrsCommand | null;
  /** The other commands, in file order. */
  commands: SrsCommand[];
  params: SrsParam[];
  /** The templates made for this definition (`<srs templates="invoice,invoice-short">`), names
   *  without `.frx`, preferred first; empty: the templates whose data dictionary fits. */
  templates: string[];
  /** Non-fatal findings (unknown attributes or elements), shown to srs_administrator. */
  warnings: string[];
}

/** The command that prepares a run (temporary tables, session settings). */
export const SETUP_COMMAND = 'srssetup';

/**
 * Names the service binds itself, from the caller: `@_username`, `@_user_id`, `@_app_name`.
 * They cannot be declared or overridden by a request, so a command can filter by the caller.
 */
export const BUILTIN_PARAMS = ['_username', '_user_id', '_app_name'] as const;

/** Query-string names that belong to the platform, never to an SRS. */
export const RESERVED_QUERY_NAMES = ['ptoken', 'app_name'] as const;
