// Counters and a histogram for the hot path (every HTTP request, every authentication), kept as
// plain numbers per series and handed to prom-client only at scrape time. prom-client's own
// inc()/observe() check and hash the labels object and look the bucket up by its text on every
// call: about 2 µs per request for the two HTTP families and the auth counter together, which
// the budget of the hot path (an authenticated ping within 10 % of a bare Fastify route) cannot spare.
// Here a request costs at most three Map lookups and a few additions; a series is made once, on
// its first request.
import { Counter, type Metric, type Registry } from 'prom-client';

/** One series: its labels, how many observations, their sum, and per bucket (not cumulative,
 *  the last one +Inf) how many fell into it. */
export interface Series<L> {
  readonly labels: L;
  count: number;
  sum: number;
  readonly buckets: Float64Array;
}

/** What a family reads at scrape time. */
export interface SeriesSource<L> {
  readonly all: readonly Series<L>[];
  readonly bounds: readonly number[];
}

/** Series found by three label values, without building a key. */
export class SeriesTable<A, B, C, L extends Record<string, string>> implements SeriesSource<L> {
  readonly all: Series<L>[] = [];
  private readonly index = new Map<A, Map<B, Map<C, Series<L>>>>();

  constructor(
    private readonly makeLabels: (a: A, b: B, c: C) => L,
    /** Upper bounds of the buckets, ascending (none for a plain counter). */
    readonly bounds: readonly number[] = [],
  ) {}

  // The last series found, and by what: a run of requests to one route, or authentications of
  // one kind, skips the three lookups.
  private lastA: A | undefined;
  private lastB: B | undefined;
  private lastC: C | undefined;
  private last: Series<L> | undefined;

  get(a: A, b: B, c: C): Series<L> {
    if (this.last !== undefined && a === this.lastA && b === this.lastB && c === this.lastC) return this.last;
    const series = this.find(a, b, c);
    this.lastA = a;
    this.lastB = b;
    this.lastC = c;
    this.last = series;
    return series;
  }

  private find(a: A, b: B, c: C): Series<L> {
    let byB = this.index.get(a);
    if (!byB) this.index.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map()));
    let series = byC.get(c);
    if (!series) {
      series = {
        labels: this.makeLabels(a, b, c),
        count: 0,
        sum: 0,
        buckets: new Float64Array(this.bounds.length + 1),
      };
      byC.set(c, series);
      this.all.push(series);
    }
    return series;
  }

  /** Counts one observation. */
  observe(series: Series<L>, value: number): void {
    series.count++;
    series.sum += value;
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    series.buckets[i]!++;
  }
}

/** A counter family whose values are the series' counts, read at each scrape. */
export function registerCounter<L extends Record<string, string>>(
  registry: Registry,
  table: SeriesSource<L>,
  name: string,
  help: string,
  labelNames: readonly (keyof L & string)[],
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of table.all) this.inc(s.labels, s.count);
    },
  });
}

/** A histogram family of the series, in prom-client's shape (`_bucket` cumulative with `le`,
 *  `_sum`, `_count`), so the registry writes it like its own histograms. */
export function registerHistogram<L extends Record<string, string>>(
  registry: Registry,
  table: SeriesSource<L>,
  name: string,
  help: string,
): void {
  const values = () =>
    table.all.flatMap((s) => {
      let cumulative = 0;
      const buckets = [...table.bounds, '+Inf' as const].map((le, i) => {
        cumulative += s.buckets[i]!;
        return { labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` };
      });
      return [
        ...buckets,
        { labels: s.labels, value: s.sum, metricName: `${name}_sum` },
        { labels: s.labels, value: s.count, metricName: `${name}_count` },
      ];
    });
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: values() }),
    reset() {
      for (const s of table.all) {
        s.count = 0;
        s.sum = 0;
        s.buckets.fill(0);
      }
    },
  };
  // The registry needs only name, help, type and get() of a metric (it calls nothing else when
  // writing the text); prom-client's type names its own classes.
  registry.registerMetric(metric as unknown as Metric);
}
