// Preloaded into a `platform-core` child (NODE_OPTIONS=--import=<this file>) by tests that crash
// it part-way through its migrations: the process ends itself with SIGKILL just before its
// database statement number KILL_AT_STATEMENT (1-based) would start, as a crash between two
// statements would. Counted are the statements from the first one that names kysely_migration
// (where migrating starts) on, on SQLite (better-sqlite3's prepare and pragma) and PostgreSQL
// (pg's Client#query). At exit the count is printed on stderr ("statements: N"), so a test run
// without the variable learns how many kill points a run has, and so are the numbers of the
// statements that record a migration as applied ("migration records: a,b,…"): a kill before
// one of those leaves the migrations before it applied.
import pg from 'pg';
import { loadSqlite } from '../../dist/db/sqlite-file.js';

const killAt = Number(process.env.KILL_AT_STATEMENT ?? 0);
let started = 0;
const records = [];

function beforeStatement(statement) {
  const text = typeof statement === 'string' ? statement : String(statement?.text ?? '');
  if (started === 0 && !text.includes('kysely_migration')) return;
  started += 1;
  if (/insert\s+into\s+"?kysely_migration"?\s/i.test(text)) records.push(started);
  if (started === killAt) process.kill(process.pid, 'SIGKILL');
}

function counted(proto, method) {
  const original = proto[method];
  proto[method] = function countedStatement(...args) {
    beforeStatement(args[0]);
    return original.apply(this, args);
  };
}

const SQLite = loadSqlite();
counted(SQLite.prototype, 'prepare');
counted(SQLite.prototype, 'pragma');
counted(pg.Client.prototype, 'query');

process.on('exit', () => process.stderr.write(`statements: ${started}\nmigration records: ${records.join(',')}\n`));
