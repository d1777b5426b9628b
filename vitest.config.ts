import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts (or finds) the PostgreSQL server once for the whole run and hands its URL to the
    // test files through inject('pgUrl'); see the file for the skip/require rules.
    // The second gives the run a temp directory of its own and removes it at the end.
    globalSetup: ['test/support/global-setup.ts', 'test/support/temp-dir-setup.ts'],
    // better-sqlite3 and @node-rs/argon2 are native addons. Worker threads share one process,
    // and native modules that are not context-aware misbehave or crash there; child processes
    // give each test file a clean process instead.
    pool: 'forks',
    // Tests that hash passwords with argon2, build schemas or talk to PostgreSQL are slow on a
    // 2-core CI machine that also runs the compiler; the defaults (5 s / 10 s) flake there.
    testTimeout: 30_000,
    // Hooks create databases and run migrations, which is slower still.
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
