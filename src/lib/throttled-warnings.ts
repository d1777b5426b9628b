// Expected back-pressure (a database that is down, a full disk, a busy renderer) refuses many
// requests in a row with the same cause. One warn line per cause per interval says so without
// flooding the log or tripping error-rate alerts: the first occurrence is logged at once, the
// repeats within the interval are counted, and when the interval ends the count is logged (with
// the latest occurrence's fields) if there was any. A cause that stops is forgotten after one
// quiet interval, so its next occurrence is logged at once again.

export interface WarnSink {
  warn(fields: object, message: string): void;
}

interface CauseState {
  suppressed: number;
  latest: Record<string, unknown>;
  message: string;
  timer: NodeJS.Timeout;
}

export const DEFAULT_WARNING_INTERVAL_MS = 60_000;

export class ThrottledWarnings {
  private readonly causes = new Map<string, CauseState>();

  constructor(
    private readonly sink: WarnSink,
    private readonly intervalMs: number = DEFAULT_WARNING_INTERVAL_MS,
  ) {}

  /**
   * A warn line for `cause` (a stable name such as an error code), written to `log` (a request's
   * logger, which adds its id) unless this cause was logged within the interval; then it is only
   * counted.
   */
  warn(cause: string, fields: Record<string, unknown>, message: string, log: WarnSink = this.sink): void {
    const state = this.causes.get(cause);
    if (state) {
      state.suppressed += 1;
      state.latest = fields;
      state.message = message;
      return;
    }
    log.warn(fields, message);
    this.causes.set(cause, { suppressed: 0, latest: fields, message, timer: this.endOfInterval(cause) });
  }

  /** Logs the repeats not yet reported and forgets every cause (the server is closing). */
  flush(): void {
    for (const state of this.causes.values()) {
      clearTimeout(state.timer);
      this.report(state);
    }
    this.causes.clear();
  }

  private endOfInterval(cause: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const state = this.causes.get(cause);
      if (!state) return;
      if (state.suppressed === 0) {
        this.causes.delete(cause);
        return;
      }
      this.report(state);
      state.suppressed = 0;
      state.timer = this.endOfInterval(cause);
    }, this.intervalMs);
    // A pending count never keeps the process alive; closing the server flushes it.
    timer.unref();
    return timer;
  }

  private report(state: CauseState): void {
    if (state.suppressed === 0) return;
    const seconds = this.intervalMs / 1000;
    this.sink.warn(
      { ...state.latest, repeated: state.suppressed, intervalSeconds: seconds },
      `${state.message}: ${state.suppressed} more like it within ${seconds} s`,
    );
  }
}
