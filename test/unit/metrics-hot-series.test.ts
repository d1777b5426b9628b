// The hot path's series (src/metrics/hot-series.ts) write the same text as prom-client's own
// Counter and Histogram given the same observations: bucket bounds inclusive, buckets
// cumulative, +Inf, sum and count, labels escaped by the registry.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerCounter, registerHistogram, SeriesTable } from '../../src/metrics/hot-series.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
type L = { route: string; method: string; status: string };
const OBSERVATIONS: Array<[string, string, number, number]> = [
  ['/a/:id', 'GET', 200, 0.001], // on a bound: counted in that bucket (le is inclusive)
  ['/a/:id', 'GET', 200, 0.0005],
  ['/a/:id', 'GET', 200, 0.5],
  ['/a/:id', 'GET', 404, 7], // past the last bound: only in +Inf
  ['/b "quoted" \\ path\n', 'POST', 201, 0.01],
  ['/a/:id', 'GET', 200, 0],
  // Each differing from the one before in one label only (the table remembers its last series).
  ['/a/:id', 'POST', 200, 0.2],
  ['/c', 'POST', 200, 0.3],
  ['/c', 'POST', 500, 0.4],
  ['/c', 'POST', 500, 0.4],
];

async function ours(): Promise<string> {
  const registry = new Registry();
  const table = new SeriesTable<string, string, number, L>(
    (route, method, status) => ({ route, method, status: String(status) }),
    BOUNDS,
  );
  registerCounter(registry, table, 'requests_total', 'help', ['route', 'method', 'status']);
  registerHistogram(registry, table, 'duration_seconds', 'help');
  for (const [route, method, status, v] of OBSERVATIONS) table.observe(table.get(route, method, status), v);
  return registry.metrics();
}

async function promClients(): Promise<string> {
  const registry = new Registry();
  const labelNames = ['route', 'method', 'status'];
  const counter = new Counter({ name: 'requests_total', help: 'help', labelNames, registers: [registry] });
  const histogram = new Histogram({
    name: 'duration_seconds',
    help: 'help',
    labelNames,
    buckets: BOUNDS,
    registers: [registry],
  });
  for (const [route, method, status, v] of OBSERVATIONS) {
    counter.inc({ route, method, status: String(status) });
    histogram.observe({ route, method, status: String(status) }, v);
  }
  return registry.metrics();
}

describe('hot-path series', () => {
  it('write what prom-client writes for the same observations', async () => {
    const sorted = (text: string) => text.split('\n').filter(Boolean).sort();
    const expected = await promClients();
    expect(expected).toContain('duration_seconds_bucket{le="0.001",route="/a/:id",method="GET",status="200"} 3');
    expect(sorted(await ours())).toEqual(sorted(expected));
  });

  it('finds a series by its three values without mixing them up', () => {
    const table = new SeriesTable<string, string, number, L>((route, method, status) => ({
      route,
      method,
      status: String(status),
    }));
    const a = table.get('/x', 'GET', 200);
    expect(table.get('/x', 'GET', 200)).toBe(a);
    expect(table.get('/x', 'GET', 404)).not.toBe(a);
    expect(table.get('/x', 'HEAD', 200)).not.toBe(a);
    expect(table.get('/y', 'GET', 200)).not.toBe(a);
    expect(table.all).toHaveLength(4);
    expect(a.labels).toEqual({ route: '/x', method: 'GET', status: '200' });
  });
});
