// What a request's parameters can add to /metrics: ping answers with any status from 200 to 599
// it is asked for, and every one of those 400 values together adds only a few series (the
// statuses the platform answers with itself, and the classes 2xx…5xx for the rest), each request
// still counted. The database plays no part here: SQLite only.
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';
import { scrape } from '../support/prometheus.js';

const TOKEN = 'metrics-token-for-the-status-series-0123';
const REQUESTS = `platform_core_http_requests_total`;
const PING = { route: '/api/core/system/ping', method: 'GET' };

describe('series added by request parameters', () => {
  let db: TestDatabase;
  let inst: Instance;
  const metrics = () => scrape(`${inst.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
  // Plain node:http: fetch turns a 407 (Proxy Authentication Required) into a network error.
  const statusOf = (path: string) =>
    new Promise<number>((resolve, reject) => {
      get(`${inst.url}${path}`, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });
  /** The metric lines of a scrape (every series of every family, comments left out). */
  const lines = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    inst = await startInstance(db, { Settings__MetricsToken: TOKEN });
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('ping with every statusCode from 200 to 599 adds a few series, and counts every request', async () => {
    const before = await metrics();
    const codes = Array.from({ length: 400 }, (_, i) => 200 + i);
    for (let i = 0; i < codes.length; i += 20) {
      const batch = codes.slice(i, i + 20);
      const statuses = await Promise.all(batch.map((code) => statusOf(`${PING.route}?statusCode=${code}`)));
      expect(statuses).toEqual(batch);
    }
    const after = await metrics();
    const series = after.samplesOf(REQUESTS, PING);
    const statuses = series.map((s) => s.labels?.status ?? '');
    // The platform's own statuses stay exact; any other is its class.
    expect(statuses.length).toBeLessThanOrEqual(24);
    for (const status of statuses) expect(status).toMatch(/^([2-5]\d\d|[2-5]xx)$/);
    expect(statuses).toEqual(expect.arrayContaining(['200', '404', '429', '503', '2xx', '3xx', '4xx', '5xx']));
    expect(statuses).not.toContain('418');
    expect(after.value(REQUESTS, { ...PING, status: '404' })).toBe(1);
    expect(series.reduce((n, s) => n + Number(s.value), 0)).toBe(400);
    // Counter and histogram together: a bounded number of lines, not hundreds of series.
    expect(lines(after.text).length - lines(before.text).length).toBeLessThan(24 * 20);
  });
});
