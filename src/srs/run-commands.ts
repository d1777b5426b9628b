// Runs an SRS definition's commands for one request: one transaction, `srssetup` first, then the
// commands in file order, each command's SQL split into statements with its params bound (never
// spliced). A command's rows are those of its last statement. Commands whose `acl` the caller
// does not meet are not run: their data is an empty list (or null with dtsingle), so the same
// template serves callers with and without the role. Any failure rolls everything back.
//
// Time limits: PostgreSQL enforces `SET LOCAL statement_timeout` per statement. better-sqlite3
// runs a statement synchronously and cannot interrupt it, so on SQLite a statement that took
// longer than the limit fails its command after it returns (the same answer as on PostgreSQL,
// but the process was busy meanwhile; README "Reports (SRS)").
import { sql, type Kysely, type RawBuilder } from 'kysely';
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
    super(422, 'command_failed', message, { details: [{ field: command, rule: 'command', message }] });
  }
}

const PG_CASTS: Record<ParamType, string> = { string: 'text', int: 'bigint', decimal: 'numeric', bool: 'boolean', date: 'date' };
const MARKERS = ['@', ':'] as const;

export const mayRun = (command: SrsCommand, roles: ReadonlySet<string>): boolean => command.acl.length === 0 || command.acl.some((r) => roles.has(r));

/** A value better-sqlite3 can bind (it refuses booleans). */
function sqliteValue(v: ParamValue, type: ParamType | undefined): ParamValue {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (type === 'decimal' && typeof v === 'string') return Number(v);
  return v;
}

/** A row value as JSON: blobs as base64, big integers as numbers when exact, Dates as ISO text. */
function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

const jsonRow = (row: unknown): Record<string, unknown> => jsonValue(row) as Record<string, unknown>;

export interface RunInput {
  definition: SrsDefinition;
  /** Declared params and the built-ins, by name. */
  values: Record<string, ParamValue>;
  roles: ReadonlySet<string>;
}

export async function runCommands(db: Kysely<any>, dialect: DialectName, input: RunInput, limits: RunLimits): Promise<RunResult> {
  const { definition, values, roles } = input;
  const { setup } = definition;
  if (setup && !mayRun(setup, roles)) throw forbidden('command_not_allowed', `SRS ${definition.id} requires role ${setup.acl.join(' or ')}`);
  const types = new Map<string, ParamType>(definition.params.map((p) => [p.name, p.type]));
  const casts = new Map<string, string>([
    ...definition.params.filter((p) => p.typed).map((p): [string, string] => [p.name, PG_CASTS[p.type]]),
    ...BUILTIN_PARAMS.map((n): [string, string] => [n, 'text']),
  ]);
  const boundValues = dialect === 'sqlite' ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, sqliteValue(v, types.get(k))])) : values;
  const placeholder =
    dialect === 'postgresql'
      ? (name: string, value: unknown): RawBuilder<unknown> => {
          const cast = casts.get(name);
          return cast ? sql`cast(${value} as ${sql.raw(cast)})` : sql`${value}`;
        }
      : undefined;

  const runCommand = async (trx: Kysely<any>, command: SrsCommand): Promise<unknown[]> => {
    let rows: unknown[] = [];
    for (const statement of splitStatements(command.sql)) {
      const bound = bindNamedParameters(statement, boundValues, { prefixes: MARKERS, ...(placeholder ? { placeholder } : {}) });
      const started = performance.now();
      try {
        rows = (await bound.query.execute(trx)).rows;
      } catch (err) {
        const timedOut = (err as { code?: unknown }).code === '57014';
        throw new CommandFailedError(command.name, timedOut ? timeoutMessage(command, limits) : `Command "${command.name}" failed`, err);
      }
      if (dialect === 'sqlite' && performance.now() - started > limits.statementTimeoutMs) {
        throw new CommandFailedError(command.name, timeoutMessage(command, limits), new Error('statement ran past the statement timeout'));
      }
      if (rows.length > limits.maxRows) {
        throw new CommandFailedError(command.name, `Command "${command.name}" returned more than ${limits.maxRows} rows (Settings:SrsMaxRows)`, new Error(`${rows.length} rows`));
      }
    }
    return rows;
  };

  const data: Record<string, unknown> = {};
  const skipped: string[] = [];
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgresql') {
      // SET takes no bound parameters; the value is an integer from the validated settings.
      await sql`set local statement_timeout = ${sql.raw(String(Math.max(1, Math.round(limits.statementTimeoutMs))))}`.execute(trx);
    }
    if (setup) await runCommand(trx, setup);
    for (const command of definition.commands) {
      if (!mayRun(command, roles)) {
        skipped.push(command.name);
        data[command.name] = command.single ? null : [];
        continue;
      }
      const rows = await runCommand(trx, command);
      data[command.name] = command.single ? (rows.length > 0 ? jsonRow(rows[0]) : null) : rows.map(jsonRow);
    }
  });
  return { data, skipped };
}

function timeoutMessage(command: SrsCommand, limits: RunLimits): string {
  return `Command "${command.name}" ran longer than the statement timeout (${limits.statementTimeoutMs / 1000} s, Settings:SrsStatementTimeoutSeconds)`;
}
