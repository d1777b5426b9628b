// Fastify gives every request a pino child logger bound to its request id. Building one costs
// more than the rest of a cached, authenticated request, and most requests never log. This
// factory hands out a stand-in that builds the real child on the first log call.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
  isLevelEnabled(level: string): boolean {
    return (this.parent as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level);
  }
  silent(): void {}
}

const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
for (const level of LEVELS) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value(this: LazyChildLogger, ...args: unknown[]) {
      // Below the level, nothing is built at all.
      if (!this.isLevelEnabled(level)) return;
      (this as unknown as { logger: Record<Level, (...a: unknown[]) => void> }).logger[level](...args);
    },
  });
}

export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
