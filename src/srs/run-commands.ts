// Runs an SRS definition's commands for one request: one transaction, `srssetup` first, then the
// commands in file order, each command's SQL split into statements with its params bound (never
// spliced). A command's rows are those of its last statement. Commands whose `acl` the caller
// does not meet are not run: their data is an empty list (or null with dtsingle), so the same
// template serves callers with and without the role. Any failure rolls everything back. A
// `required` dtsingle command without a row is a 404 (`record_not_found`), not a blank report.
//
// This module decides what runs, with which bound values; an executor runs it:
// - PostgreSQL: over a connection of the service's pool, on the main thread (connection-commands.ts);
//   `SET LOCAL statement_timeout` cancels a statement at the limit.
// - SQLite: in a command process with its own connection to the database file
//   (sqlite-commands/), because better-sqlite3 runs a statement synchronously and cannot
//   interrupt it: the process is killed at the limit, which stops the statement and discards
//   the transaction, while the server keeps answering.
import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../db/connect.js';
import { bindNamedParameters, splitStatements } from '../db/sql-text.js';
import { AppError, forbidden } from '../lib/errors.js';
import { BUILTIN_PARAMS, type ParamType, type SrsCommand, type SrsDefinition } from './definition/model.js';
import type { ParamValue } from './params.js';

export interface RunLimits {
  statementTimeoutMs: number;
  maxRows: number;
}

export interface RunResult {
  /** Command name → rows (or one row / null with dtsingle): what templates receive. */
  data: Record<string, unknown>;
  /** Commands not run because the caller lacks every role of their acl. */
  skipped: string[];
}

/** A command failed: the client learns which one, the log gets the cause. */
export class CommandFailedError extends AppError {
  constructor(
    readonly command: string,
    message: string,
    override readonly cause: unknown,
  ) {
    super('unprocessable', 'command_failed', message, { details: [{ field: command, rule: 'command', message }] });
  }
}

export const failedMessage = (command: string): string => `Command "${command}" failed`;

export const timeoutMessage = (command: string, limits: RunLimits): string =>
  `Command "${command}" ran longer than the statement timeout (${limits.statementTimeoutMs / 1000} s, ` +
  `Settings:SrsStatementTimeoutSeconds)`;

export const tooManyRowsMessage = (command: string, limits: RunLimits): string =>
  `Command "${command}" returned more than ${limits.maxRows} rows (Settings:SrsMaxRows)`;

/** A command ready to run: its statements with the params bound. */
export interface CommandToRun {
  name: string;
  /** What it contributes to the data: its rows, the first row (dtsingle), or nothing (srssetup). */
  output: 'rows' | 'single' | 'none';
  statements: RawBuilder<unknown>[];
}

/**
 * Runs commands in order in one transaction, committed only when all succeed. Resolves with the
 * data of the commands whose output is not 'none' (rows as JSON values, see row-json.ts);
 * rejects with CommandFailedError naming the failing command (timeout, row limit, SQL error).
 */
export interface CommandExecutor {
  execute(commands: readonly CommandToRun[], limits: RunLimits, signal?: AbortSignal): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const PG_CASTS: Record<ParamType, string> = {
  string: 'text',
  int: 'bigint',
  decimal: 'numeric',
  bool: 'boolean',
  date: 'date',
};
const MARKERS = ['@', ':'] as const;

export const mayRun = (command: SrsCommand, roles: ReadonlySet<string>): boolean =>
  command.acl.length === 0 || command.acl.some((r) => roles.has(r));

/** A value better-sqlite3 can bind (it refuses booleans). */
function sqliteValue(v: ParamValue, type: ParamType | undefined): ParamValue {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (type === 'decimal' && typeof v === 'string') return Number(v);
  return v;
}

export interface RunInput {
  definition: SrsDefinition;
  /** Declared params and the built-ins, by name. */
  values: Record<string, ParamValue>;
  roles: ReadonlySet<string>;
}

/** Binds a command's statements for the dialect: SQLite values it can bind, PostgreSQL casts of typed params. */
function statementBinder(
  dialect: DialectName,
  definition: SrsDefinition,
  values: Record<string, ParamValue>,
): (command: SrsCommand) => RawBuilder<unknown>[] {
  const types = new Map<string, ParamType>(definition.params.map((p) => [p.name, p.type]));
  const casts = new Map<string, string>([
    ...definition.params.filter((p) => p.typed).map((p): [string, string] => [p.name, PG_CASTS[p.type]]),
    ...BUILTIN_PARAMS.map((n): [string, string] => [n, 'text']),
  ]);
  const boundValues =
    dialect === 'sqlite'
      ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, sqliteValue(v, types.get(k))]))
      : values;
  // SQLite: better-sqlite3 binds every JS number as REAL, so an int (or bool) param would be 5.0
  // in `'x' || @n` and make `@n / 2` a real division; a cast keeps it an INTEGER. (No BigInt:
  // the values travel to the command process as JSON.)
  const sqliteIntegers = new Set(
    definition.params.filter((p) => p.type === 'int' || p.type === 'bool').map((p) => p.name),
  );
  const placeholder =
    dialect === 'postgresql'
      ? (name: string, value: unknown): RawBuilder<unknown> => {
          const cast = casts.get(name);
          return cast ? sql`cast(${value} as ${sql.raw(cast)})` : sql`${value}`;
        }
      : (name: string, value: unknown): RawBuilder<unknown> =>
          sqliteIntegers.has(name) && value !== null ? sql`cast(${value} as integer)` : sql`${value}`;
  return (command) =>
    splitStatements(command.sql).map(
      (statement) => bindNamedParameters(statement, boundValues, { prefixes: MARKERS, placeholder }).query,
    );
}

export async function runCommands(
  executor: CommandExecutor,
  dialect: DialectName,
  input: RunInput,
  limits: RunLimits,
  signal?: AbortSignal,
): Promise<RunResult> {
  const { definition, values, roles } = input;
  const { setup } = definition;
  if (setup && !mayRun(setup, roles))
    throw forbidden('command_not_allowed', `SRS ${definition.id} requires role ${setup.acl.join(' or ')}`);
  const bind = statementBinder(dialect, definition, values);
  const toRun: CommandToRun[] = [];
  const skipped: string[] = [];
  if (setup) toRun.push({ name: setup.name, output: 'none', statements: bind(setup) });
  for (const command of definition.commands) {
    if (mayRun(command, roles))
      toRun.push({ name: command.name, output: command.single ? 'single' : 'rows', statements: bind(command) });
    else skipped.push(command.name);
  }
  const results = await executor.execute(toRun, limits, signal);
  for (const command of definition.commands)
    if (command.required && !skipped.includes(command.name) && results[command.name] == null) {
      const message = `Command "${command.name}" found no row: the record does not exist`;
      throw new AppError('not_found', 'record_not_found', message, {
        details: [{ field: command.name, rule: 'required', message }],
      });
    }
  // Keys in file order, the commands left out included.
  const data: Record<string, unknown> = {};
  for (const command of definition.commands)
    data[command.name] = skipped.includes(command.name) ? (command.single ? null : []) : results[command.name];
  return { data, skipped };
}
