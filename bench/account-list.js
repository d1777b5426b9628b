// GET /api/core/account/list (the admin console's account directory, issue 20) with 100,000
// accounts: the p50 and p99 latency of one page, for the query shapes the console sends (first
// page, a deep page, a search, sorted by last activity, …). Requests are sent one at a time: this
// measures what one administrator waits for, not throughput. The goal is a page in < 100 ms.
//
// The accounts are written straight into the tables before the server starts, in multi-row
// inserts inside one transaction, all with one password hash computed once (never 100,000 argon2
// runs). SQLite always; PostgreSQL too when PG_BENCH_URL names a server whose user may create
// databases (a fresh database is made on it and dropped afterwards). SQLite is measured as an
// instance runs it (the platform never ANALYZEs, so the planner goes by the indexes alone);
// PostgreSQL after VACUUM ANALYZE, which autovacuum runs by itself within about a minute of a bulk
// load (it also marks the pages all-visible, which index-only scans need).
import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, migrateToLatest } from '../dist/db/connect.js';
import { ensureDefaultTeam, insertTeam } from '../dist/teams/teams-repository.js';
import { ensureRole } from '../dist/accounts/roles-repository.js';
import { hashPassword } from '../dist/auth/passwords.js';
import { startServerChild } from './lib/children.js';
import { fmt, median, table } from './lib/load.js';
import { BENCH_ADMIN_PASSWORD } from './lib/admin.js';

export const description = 'GET /api/core/account/list with 100,000 accounts: p50/p99 of a page per query shape';

export const defaults = { rounds: 3, duration: 2, warmup: 2 };

const ACCOUNTS = 100_000;
const ADMIN = { username: 'bench.admin', password: BENCH_ADMIN_PASSWORD };
const FIRST = ['Anna', 'Bert', 'Carla', 'Dirk', 'Eva', 'Finn', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Klara', 'Lars'];
const LAST = ['Adler', 'Becker', 'Cohen', 'Dietrich', 'Engel', 'Fischer', 'Graf', 'Hoffmann', 'Imhof', 'Jung'];
const TEAMS = ['SALES', 'OPS', 'DEV', 'HR', 'FIN'];

/** What the console asks for (its labels are the report's rows). */
const SHAPES = [
  ['first page', 'limit=50'],
  ['deep page (last)', `limit=50&offset=${ACCOUNTS - 50}`],
  ['search "mann"', 'q=mann&limit=50'],
  ['search, one match', 'q=user099999&limit=50'],
  ['last_activity desc', 'sort=last_activity&order=desc&limit=50'],
  ['name, middle page', `sort=name&limit=50&offset=${ACCOUNTS / 2}`],
  ['status desc', 'sort=status&order=desc&limit=50'],
  ['role + team filter', 'role=app_demo&team=OPS&limit=50'],
];

const iso = (ms) => new Date(ms).toISOString().replace('Z', '000Z');

/** Writes the accounts (exported for trying query plans by hand). */
export async function seed(db) {
  const started = Date.now();
  const hash = await hashPassword('seeded-account-password');
  const com = await ensureDefaultTeam(db);
  const teams = [];
  for (const short of TEAMS) teams.push(await insertTeam(db, short, `Team ${short}`));
  await ensureRole(db, 'app_demo');
  const t0 = Date.parse('2023-01-01T00:00:00Z');
  const span = 3 * 365 * 86_400_000;
  const BATCH = 1000;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < ACCOUNTS; start += BATCH) {
      const users = [];
      const members = [];
      const roles = [];
      for (let i = start; i < Math.min(ACCOUNTS, start + BATCH); i++) {
        const id = randomUUID();
        const username = `user${String(i).padStart(6, '0')}`;
        const created = t0 + Math.floor((i / ACCOUNTS) * span);
        const team = i % 10 === 0 ? teams[(i / 10) % TEAMS.length] : null;
        users.push({
          id,
          username,
          normalized_username: username.toUpperCase(),
          password_hash: hash,
          security_stamp: 'seeded',
          email_confirmed: 0,
          phone_number: '',
          lockout_enabled: 1,
          lockout_end: i % 97 === 0 ? '9999-12-31T23:59:59.999999Z' : null,
          is_active: i % 89 === 0 ? 0 : 1,
          last_activity: i % 3 === 0 ? null : iso(created + ((i * 7919) % 86_400_000) * 30),
          created_at: iso(created),
          team_id: team ? team.id : com.id,
          app_name: '',
          first_name: FIRST[i % FIRST.length],
          last_name: LAST[(i * 7) % LAST.length],
          home: null,
          color: null,
          short: null,
          currency: 'EUR',
          avatar: null,
          properties: '{}',
        });
        members.push({ user_id: id, team_id: com.id, level: null });
        if (team) members.push({ user_id: id, team_id: team.id, level: null });
        if (i % 5 === 0) roles.push({ user_id: id, role_name: 'app_demo' });
      }
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('team_members').values(members).execute();
      if (roles.length) await trx.insertInto('user_roles').values(roles).execute();
    }
  });
  return (Date.now() - started) / 1000;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Requests one after another for `seconds`; their latencies in ms. */
async function timeRequests(url, headers, seconds, failures, label) {
  const times = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.json();
    times.push(performance.now() - t);
    if (res.status !== 200 || !Array.isArray(body?.data?.items) || body.data.total === undefined)
      failures.push(`${label}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  }
  return times;
}

async function measureDatabase(kind, databaseUrl, options, log, failures) {
  const dataDir = await mkdtemp(join(tmpdir(), `platform-core-bench-list-${kind}-`));
  let server;
  try {
    const handle = openDatabase({ databaseUrl, dataDir });
    try {
      await migrateToLatest(handle);
      log(`${kind}: seeding ${ACCOUNTS} accounts…`);
      log(`${kind}: seeded in ${(await seed(handle.db)).toFixed(1)} s`);
      if (databaseUrl) await sql`vacuum analyze`.execute(handle.db);
    } finally {
      await handle.close();
    }
    server = await startServerChild('platform', new URL('./servers/platform.js', import.meta.url), {
      dataDir,
      ...ADMIN,
      env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
    });
    const login = await fetch(`${server.url}/api/core/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const jwt = (await login.json()).data.token;
    const headers = { authorization: `Bearer ${jwt}` };
    const url = (query) => `${server.url}/api/core/account/list?${query}`;
    const first = await (await fetch(url('limit=1'), { headers })).json();
    if (first?.data?.total !== ACCOUNTS + 1) failures.push(`${kind}: total ${first?.data?.total}, not ${ACCOUNTS + 1}`);
    if (options.warmup > 0)
      for (const [label, query] of SHAPES)
        await timeRequests(url(query), headers, options.warmup / SHAPES.length, failures, `${kind} warm-up ${label}`);
    const samples = new Map(SHAPES.map(([label]) => [label, []]));
    for (let round = 1; round <= options.rounds; round++)
      for (const [label, query] of SHAPES)
        samples.get(label).push(...(await timeRequests(url(query), headers, options.duration, failures, label)));
    const rows = SHAPES.map(([label]) => {
      const sorted = samples.get(label).sort((a, b) => a - b);
      return { label, n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    });
    log(
      '\n' +
        table(
          [`${kind}, ${ACCOUNTS} accounts`, 'requests', 'p50 ms', 'p99 ms'],
          rows.map((r) => [r.label, String(r.n), fmt.ms(r.p50), fmt.ms(r.p99)]),
        ),
    );
    const worst = rows.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    const p50 = fmt.ms(median(rows.map((r) => r.p50)));
    return `account-list ${kind}: p50 ${p50} ms (median of shapes), worst p99 ${fmt.ms(worst.p99)} ms (${worst.label})`;
  } finally {
    await server?.stop();
    if (!options.keep) await rm(dataDir, { recursive: true, force: true });
  }
}

/** A new database on the PG_BENCH_URL server; `drop` removes it. */
async function benchDatabase(baseUrl) {
  const name = `bench_list_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function run({ options, log }) {
  const failures = [];
  const headlines = [await measureDatabase('sqlite', null, options, log, failures)];
  const pgUrl = process.env.PG_BENCH_URL;
  if (pgUrl) {
    const database = await benchDatabase(pgUrl);
    try {
      headlines.push(await measureDatabase('postgresql', database.url, options, log, failures));
    } finally {
      await database.drop();
    }
  } else {
    log('\npostgresql: skipped (set PG_BENCH_URL to a server whose user may create databases)');
  }
  return { failures, headlines };
}
