// Runs one request's commands on an SQLite connection, in one transaction: what an SQLite
// command process does with a `run` message. Rows become JSON values here (row-json.ts), so the
// server receives data ready for templates.
//
// The transaction begins DEFERRED, unlike the server's own (BEGIN IMMEDIATE, sqlite-dialect.ts):
// report commands mostly only read, and a read transaction holds no lock, so a long report never
// makes the server's writes (logins, activity) wait for the write lock on the event loop. A
// command that writes takes the lock at its first write; one that writes after reading data
// another connection has changed since fails with SQLITE_BUSY (its command fails, nothing is kept).
import type SQLiteDatabase from 'better-sqlite3';
import { commandData } from '../row-json.js';
import type { CompiledStatement, ErrorReport, FailureReason, RunJob } from './protocol.js';

export type JobOutcome =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; command: string | null; reason: FailureReason; error: ErrorReport };

class RowLimitExceeded extends Error {}

function report(err: unknown): ErrorReport {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return {
    name: e.name,
    message: e.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(e.stack !== undefined ? { stack: e.stack } : {}),
  };
}

/** The SQL ended the run's transaction (COMMIT, END, ROLLBACK): what ran after it would not be
 *  the run's to undo. */
class AppTransactionLeftError extends Error {}

/**
 * Runs one statement of app SQL inside the transaction the caller began, on a connection of the
 * sealed addon (db/sqlite-file.ts openAppSqliteFile: SQLite itself refuses ATTACH, so no check of
 * the attached databases is needed, or could be fooled). After the statement the run must still
 * be in its transaction, else it fails before the next statement runs outside it.
 */
function runAppStatement(db: SQLiteDatabase.Database, statement: CompiledStatement, maxRows: number): unknown[] {
  const rows = runStatement(db, statement, maxRows);
  if (!db.inTransaction) throw new AppTransactionLeftError('the SQL ended its transaction');
  return rows;
}

/** The statement's rows (none for a statement that returns no data). */
function runStatement(db: SQLiteDatabase.Database, statement: CompiledStatement, maxRows: number): unknown[] {
  const prepared = db.prepare(statement.sql);
  if (!prepared.reader) {
    prepared.run(statement.parameters as unknown[]);
    return [];
  }
  // all() rather than iterate(): iterate() costs a native call per row, about 2.5 times the time
  // for a result of 40,000 rows. A result far over the limit is cut short by the time limit.
  const rows = prepared.all(statement.parameters as unknown[]);
  if (rows.length > maxRows) throw new RowLimitExceeded(`${rows.length} rows`);
  return rows;
}

/**
 * Runs `job` on `db`; `onStatement` is called before each statement with its command's name.
 * Never throws: every failure is rolled back and described in the outcome.
 */
export function executeJob(
  db: SQLiteDatabase.Database,
  job: RunJob,
  onStatement: (command: string) => void,
): JobOutcome {
  let current: string | null = null;
  try {
    db.exec('BEGIN');
    const data: Record<string, unknown> = {};
    for (const command of job.commands) {
      current = command.name;
      let rows: unknown[] = [];
      for (const statement of command.statements) {
        onStatement(command.name);
        const started = performance.now();
        rows = runAppStatement(db, statement, job.maxRows);
        // The server stops a statement at the limit; one that ended just before that but
        // still took longer fails the same way.
        const took = performance.now() - started;
        if (took > job.statementTimeoutMs) {
          return rollback(db, {
            ok: false,
            command: command.name,
            reason: 'timeout',
            error: report(new Error(`statement ran ${Math.round(took)} ms`)),
          });
        }
      }
      if (command.output !== 'none') data[command.name] = commandData(rows, command.output === 'single');
    }
    current = null;
    db.exec('COMMIT');
    return { ok: true, data };
  } catch (err) {
    const reason: FailureReason = err instanceof RowLimitExceeded ? 'rows' : 'error';
    return rollback(db, { ok: false, command: current, reason, error: report(err) });
  }
}

function rollback(db: SQLiteDatabase.Database, outcome: JobOutcome): JobOutcome {
  // SQLite may have rolled back already (some errors end the transaction themselves).
  if (db.inTransaction) db.exec('ROLLBACK');
  return outcome;
}
