// One warn line per cause per interval, with the count of the repeats (a fake clock).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThrottledWarnings } from '../../src/lib/throttled-warnings.js';

interface Line {
  fields: Record<string, unknown>;
  message: string;
}

function recorder(): { lines: Line[]; warn(fields: object, message: string): void } {
  const lines: Line[] = [];
  return { lines, warn: (fields, message) => void lines.push({ fields: fields as Line['fields'], message }) };
}

describe('ThrottledWarnings', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logs the first occurrence of a cause at once and counts the repeats until the interval ends', () => {
    const sink = recorder();
    const warnings = new ThrottledWarnings(sink, 60_000);
    for (let i = 0; i < 500; i++) warnings.warn('database_unavailable', { code: 'database_unavailable', i }, 'fault');
    expect(sink.lines).toEqual([{ fields: { code: 'database_unavailable', i: 0 }, message: 'fault' }]);
    vi.advanceTimersByTime(59_999);
    expect(sink.lines).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sink.lines).toHaveLength(2);
    expect(sink.lines[1]).toEqual({
      fields: { code: 'database_unavailable', i: 499, repeated: 499, intervalSeconds: 60 },
      message: 'fault: 499 more like it within 60 s',
    });
  });

  it('keeps causes apart, and writes a first line to the logger it is given (a request’s)', () => {
    const sink = recorder();
    const request = recorder();
    const warnings = new ThrottledWarnings(sink, 60_000);
    warnings.warn('storage_full', { code: 'storage_full' }, 'fault', request);
    warnings.warn('render_busy', { code: 'render_busy' }, 'busy', request);
    warnings.warn('storage_full', { code: 'storage_full' }, 'fault', request);
    expect(request.lines.map((l) => l.fields.code)).toEqual(['storage_full', 'render_busy']);
    vi.advanceTimersByTime(60_000);
    // Only the cause that repeated has a count to report; the summary goes to the main logger.
    expect(request.lines).toHaveLength(2);
    expect(sink.lines.map((l) => [l.fields.code, l.fields.repeated])).toEqual([['storage_full', 1]]);
  });

  it('logs one line per interval while a cause goes on, and forgets it after a quiet interval', () => {
    const sink = recorder();
    const warnings = new ThrottledWarnings(sink, 1_000);
    for (let second = 0; second < 5; second++) {
      for (let i = 0; i < 10; i++) warnings.warn('busy', {}, 'busy');
      vi.advanceTimersByTime(1_000);
    }
    // The first at once, then one count at the end of each interval: 9 repeats in the first
    // (the first occurrence was logged itself), 10 in each after.
    expect(sink.lines.map((l) => l.fields.repeated)).toEqual([undefined, 9, 10, 10, 10, 10]);
    vi.advanceTimersByTime(1_000); // a quiet interval: nothing to report, the cause is forgotten
    expect(sink.lines).toHaveLength(6);
    warnings.warn('busy', { again: true }, 'busy');
    expect(sink.lines).toHaveLength(7);
    expect(sink.lines[6]!.fields).toEqual({ again: true });
  });

  it('flush reports the repeats not yet reported, once, and stops the timers', () => {
    const sink = recorder();
    const warnings = new ThrottledWarnings(sink, 60_000);
    warnings.warn('not_ready', {}, 'unavailable');
    warnings.warn('not_ready', {}, 'unavailable');
    warnings.warn('not_ready', {}, 'unavailable');
    warnings.flush();
    expect(sink.lines.map((l) => l.fields.repeated)).toEqual([undefined, 2]);
    expect(vi.getTimerCount()).toBe(0);
    warnings.flush();
    expect(sink.lines).toHaveLength(2);
  });
});
