// Entry of an SQLite command process (started by pool.ts with the apps' database file as its one
// argument). Each `run` request it is sent gets a connection of its own to the file, through the
// sealed addon (no ATTACH), closed when the run ends: whatever the SQL left in the connection
// (TEMP views or triggers shadowing the apps' tables, pragmas, locks) ends with it and never
// meets the next report's SQL. Answers go over the IPC channel (execute-job.ts runs the job).
// Runs compiled from dist/ in the server, or from the TypeScript sources through tsx's loader.
//
// The server stops a statement by killing this process, so nothing here needs to be
// interruptible. The process ends when the server closes the channel, and a watchdog thread
// ends it when the server itself is gone (killed) while a statement keeps this thread busy.
import { Worker } from 'node:worker_threads';
import { openAppSqliteFile } from '../../db/sqlite-file.js';
import { executeJob } from './execute-job.js';
import type { RunnerReply, RunRequest } from './protocol.js';

const send = process.send?.bind(process);
const file = process.argv[2];
if (!send || !file)
  throw new Error(
    'runner-process runs as a child process of the SRS command pool, with the database file as its argument',
  );

/** Checks once a second whether the server that started this process is still its parent. */
const PARENT_WATCHDOG = `
const { workerData } = require('node:worker_threads');
setInterval(() => { if (process.ppid !== workerData.ppid) process.kill(process.pid, 'SIGKILL'); }, 1000);
`;
// execArgv: [] — the watchdog is plain JavaScript and needs no TypeScript loader.
new Worker(PARENT_WATCHDOG, { eval: true, execArgv: [], workerData: { ppid: process.ppid } }).unref();

// A reply after the server closed the channel goes nowhere; the process is ending then anyway.
const reply = (msg: RunnerReply): void => {
  send(msg, undefined, {}, () => undefined);
};

// Opened once before `ready`: a missing or unsealed addon fails the start, not a report.
openAppSqliteFile(file).close();

process.on('message', (msg: RunRequest) => {
  if (msg?.type !== 'run') return;
  const db = openAppSqliteFile(file);
  let outcome: ReturnType<typeof executeJob>;
  try {
    outcome = executeJob(db, msg.job, (command) => reply({ type: 'statement', id: msg.id, command }));
  } finally {
    db.close();
  }
  if (outcome.ok) reply({ type: 'done', id: msg.id, data: outcome.data });
  else reply({ type: 'failed', id: msg.id, command: outcome.command, reason: outcome.reason, error: outcome.error });
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready' });
