import type { Bindings, ChildLoggerOptions, LevelWithSilent, Logger } from 'pino';

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<Logger['info']>;

/**
 * A request's logger (`request.log`) that becomes a real pino child, with the request id bound, only when a line is
 * written at an enabled level. Fastify makes one per request; a pino child (bindings serialized, redaction applied)
 * costs more than the rest of a cached answer, and at LOG_LEVEL=warn most requests never write a line.
 */
class RequestLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly childOptions: ChildLoggerOptions,
  ) {}

  get level(): LevelWithSilent | string {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.materialize().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.real ?? this.parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.materialize().bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.materialize().child(bindings, options);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }

  error(...args: LogArgs): void {
    this.write('error', args);
  }

  warn(...args: LogArgs): void {
    this.write('warn', args);
  }

  info(...args: LogArgs): void {
    this.write('info', args);
  }

  debug(...args: LogArgs): void {
    this.write('debug', args);
  }

  trace(...args: LogArgs): void {
    this.write('trace', args);
  }

  silent(): void {}

  private write(level: LogLevel, args: LogArgs): void {
    if (!this.isLevelEnabled(level)) return;
    this.materialize()[level](...args);
  }

  private materialize(): Logger {
    this.real ??= this.parent.child(this.childBindings, this.childOptions);
    return this.real;
  }
}

/**
 * Fastify's `childLoggerFactory`: the per-request logger, made lazily (see RequestLogger).
 * @example Fastify({ loggerInstance: logger, childLoggerFactory: requestLoggerFactory })
 */
export function requestLoggerFactory(parent: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  // A route with its own logLevel gets its real child at once: its level, not the parent's, decides what is written.
  if (options.level !== undefined && options.level !== parent.level) return parent.child(bindings, options);
  return new RequestLogger(parent, bindings, options) as unknown as Logger;
}
