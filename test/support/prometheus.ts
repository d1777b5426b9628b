// Reads a /metrics answer with a real Prometheus text parser (parse-prometheus-text-format), and
// looks samples up by family and labels, so tests compare counters before and after requests.
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';

export class Scrape {
  /** The families as the parser reads them (it throws on a line that is not the format). */
  readonly families: ParsedFamily[];
  /**
   * The same text with every histogram read as untyped samples: the parser folds the series of
   * a histogram into one sample without labels (its flattenMetrics), so a labelled histogram's
   * `_count`, `_sum` and `_bucket` lines are looked up as the plain samples they are.
   */
  private readonly plain: ParsedFamily[];

  constructor(readonly text: string) {
    this.families = parsePrometheusTextFormat(text);
    this.plain = parsePrometheusTextFormat(text.replace(/^(# TYPE \S+) histogram$/gm, '$1 untyped'));
  }

  family(name: string): ParsedFamily | undefined {
    return this.families.find((f) => f.name === name);
  }

  /** The sample of `name` (a histogram's: `<name>_count`…) whose labels include all of
   *  `labels`: exactly one, or none. */
  sample(name: string, labels: Record<string, string>): ParsedSample | undefined {
    const found = this.samplesOf(name, labels);
    if (found.length > 1) throw new Error(`${name}: ${found.length} samples match ${JSON.stringify(labels)}`);
    return found[0];
  }

  /** Every sample of `name` whose labels include all of `labels` (a histogram's buckets). */
  samplesOf(name: string, labels: Record<string, string>): ParsedSample[] {
    return this.plain
      .filter((f) => f.name === name)
      .flatMap((f) => f.metrics)
      .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** A counter's or gauge's value (0 when the series does not exist yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    return Number(this.sample(name, labels)?.value ?? 0);
  }

  /** A histogram series' observation count (0 when it does not exist yet). */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(`${name}_count`, labels);
  }

  /** A histogram series' sum of observations. */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.value(`${name}_sum`, labels);
  }
}

/** GET `url` with the given headers; the answer must be a scrape (200). */
export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text}`);
  return new Scrape(text);
}
