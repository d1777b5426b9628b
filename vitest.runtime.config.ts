// The runtime lane: the tests whose outcome depends on the Node.js runtime rather than on our
// code alone, for a second Node major (CI runs it on Node 24 after the whole suite on Node 20).
// Native addons (better-sqlite3 and its sealed build, argon2), worker threads and child
// processes, the HTTP stack, the script sandbox (node:vm), WebAssembly text shaping.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// Spread, not mergeConfig: that would append to the whole suite's include list.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      // Workers, pools, argon2, the HTTP internals tuned to V8.
      'test/unit/**/*.test.ts',
      // node:vm and the sandbox's limits.
      'test/report/script/**/*.test.ts',
      // harfbuzzjs (WebAssembly) and fontkit through the PDF writer.
      'test/report/export/pdf-export.test.ts',
      'test/report/export/unicode-fonts.test.ts',
      // The server end to end on both databases; the sealed SQLite addon in command processes.
      'test/integration/srs-reports.test.ts',
      'test/integration/srs-sqlite-worker.test.ts',
      'test/integration/report-sql-escapes-sqlite.test.ts',
      'test/integration/sessions.test.ts',
      'test/integration/credentials.test.ts',
      'test/integration/report-fonts.test.ts',
      // The CLI and the process's life: start, signals, backups through SQLite's backup API.
      'test/integration/cli.test.ts',
      'test/integration/first-run.test.ts',
      'test/integration/shutdown.test.ts',
      'test/integration/backup-restore.test.ts',
    ],
  },
});
