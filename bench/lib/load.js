// Load generation with autocannon (in the parent process, never in a server's), plus the
// small statistics and table helpers the HTTP benchmarks share.
import autocannon from 'autocannon';

/**
 * One autocannon run. Returns the figures the reports use and the reasons it must count as
 * failed (any status other than 200, socket errors, timeouts, bodies failing `verifyBody`).
 * @param {{ url: string, method?: string, body?: string, headers?: Record<string,string>,
 *           connections: number, duration: number, pipelining?: number,
 *           verifyBody?: (body: string) => boolean }} o
 */
export async function measure(o) {
  const result = await autocannon({
    url: o.url,
    ...(o.method ? { method: o.method } : {}),
    ...(o.body !== undefined ? { body: o.body } : {}),
    headers: o.headers ?? {},
    connections: o.connections,
    pipelining: o.pipelining ?? 1,
    duration: o.duration,
    verifyBody: o.verifyBody,
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]),
  );
  const problems = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
  const otherCodes = Object.keys(statusCodes).filter((c) => c !== '200');
  if (otherCodes.length)
    problems.push(`status codes other than 200: ${otherCodes.map((c) => `${c}×${statusCodes[c]}`).join(', ')}`);
  if (result.errors > 0) problems.push(`${result.errors} connection errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (result.mismatches > 0) problems.push(`${result.mismatches} responses with an unexpected body`);
  if (result.requests.total === 0) problems.push('no request completed');
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : 0,
    statusCodes,
    problems,
  };
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A plain fixed-width text table (first column left-aligned, the others right-aligned). */
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

export const fmt = {
  int: (n) => Math.round(n).toLocaleString('en-US'),
  // autocannon records latencies in whole milliseconds; keep the decimals medians can add.
  ms: (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1)),
  ratio: (n) => n.toFixed(2),
};
