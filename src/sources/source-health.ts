import { type SourceCacheResult, SourceTally, type UpstreamFailureKind } from '../observability/source-tally.js';

/** Whether a source talks to the real upstream or to a local stand-in (replay server, local chain). */
export type SourceMode = 'live' | 'local';

/** What GET /api/sources/health says about one source. */
export type SourceState = 'up' | 'degraded' | 'down';

/** The state of a source's circuit breaker, as the monitor is told about it. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** One row of GET /api/sources/health. */
export interface SourceStatus {
  name: string;
  kind: string;
  mode: SourceMode;
  description?: string;
  /** An embedded chain's loopback JSON-RPC URL, to send it transactions; never a live URL (it may carry a key). */
  rpcUrl?: string;
  state: SourceState;
  lastLatencyMs: number | null;
  /** ISO 8601 time of the last upstream call that completed (success or failure). */
  lastCheckedAt: string | null;
  /** A short, secret-free description of the last failure; null once a call succeeds. */
  lastError: string | null;
}

/** What a source declares about itself when it registers. */
export interface SourceRegistration {
  name: string;
  /** What the source serves, e.g. 'prices', 'social', 'rpc', 'defi'. */
  kind: string;
  mode: SourceMode;
  description?: string;
  /** Local chains only: the embedded chain's loopback JSON-RPC URL. */
  rpcUrl?: string;
}

/** The write side of one source's health: the source client reports every upstream outcome here. */
export interface SourceMonitor {
  readonly name: string;
  recordSuccess(params: { latencyMs: number }): void;
  /** An attempt that failed (`latencyMs` set: it reached the upstream) or a call the open breaker refused. */
  recordFailure(params: { latencyMs?: number; message: string; kind: UpstreamFailureKind }): void;
  recordStaleServed(): void;
  /** Where an answer came from (the stale ones are counted by recordStaleServed). */
  recordAnswer(result: Exclude<SourceCacheResult, 'stale'>): void;
  recordBreakerState(state: BreakerState): void;
  status(): SourceStatus;
}

/** What /metrics reads of one source. */
export interface SourceCounts {
  name: string;
  kind: string;
  breaker: BreakerState;
  tally: SourceTally;
}

/** Thrown when two sources register under one name: the health page could not tell them apart. */
export class SourceAlreadyRegisteredError extends Error {
  override name = 'SourceAlreadyRegisteredError';
  constructor(readonly sourceName: string) {
    super(`a source named "${sourceName}" is already registered`);
  }
}

const MAX_ERROR_LENGTH = 200;

/**
 * Strips what must never reach the health page from a failure message: query strings and
 * credentials in URLs (API keys often travel there), and overly long upstream text.
 * @example redactFailureMessage('GET https://x.io/a?apikey=s3cret failed') // 'GET https://x.io/a failed'
 */
export function redactFailureMessage(message: string): string {
  const redacted = message
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#]\S*/gi, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return redacted.length > MAX_ERROR_LENGTH ? `${redacted.slice(0, MAX_ERROR_LENGTH - 1)}…` : redacted;
}

class RegisteredSourceMonitor implements SourceMonitor {
  readonly tally = new SourceTally();
  breaker: BreakerState = 'closed';
  private lastCallFailed = false;
  private servedStale = false;
  private lastLatencyMs: number | null = null;
  private lastCheckedAt: string | null = null;
  private lastError: string | null = null;

  constructor(
    private readonly registration: SourceRegistration,
    private readonly now: () => number,
  ) {}

  get name(): string {
    return this.registration.name;
  }

  get kind(): string {
    return this.registration.kind;
  }

  recordSuccess({ latencyMs }: { latencyMs: number }): void {
    this.tally.recordAttempt(latencyMs);
    this.lastCallFailed = false;
    this.servedStale = false;
    this.lastError = null;
    this.noteCall(latencyMs);
  }

  recordFailure({
    latencyMs,
    message,
    kind,
  }: {
    latencyMs?: number;
    message: string;
    kind: UpstreamFailureKind;
  }): void {
    this.tally.recordError(kind);
    // A call the open breaker refused never reached the upstream: the health page keeps its last real call.
    if (latencyMs === undefined) return;
    this.tally.recordAttempt(latencyMs);
    this.lastCallFailed = true;
    this.lastError = redactFailureMessage(message);
    this.noteCall(latencyMs);
  }

  recordStaleServed(): void {
    this.tally.recordAnswer('stale');
    this.servedStale = true;
  }

  recordAnswer(result: Exclude<SourceCacheResult, 'stale'>): void {
    this.tally.recordAnswer(result);
  }

  recordBreakerState(state: BreakerState): void {
    this.breaker = state;
  }

  status(): SourceStatus {
    const { name, kind, mode, description, rpcUrl } = this.registration;
    return {
      name,
      kind,
      mode,
      ...(description === undefined ? {} : { description }),
      ...(rpcUrl === undefined ? {} : { rpcUrl }),
      state: this.state(),
      lastLatencyMs: this.lastLatencyMs,
      lastCheckedAt: this.lastCheckedAt,
      lastError: this.lastError,
    };
  }

  private state(): SourceState {
    if (this.breaker === 'open') return 'down';
    if (this.lastCallFailed || this.servedStale) return 'degraded';
    return 'up';
  }

  private noteCall(latencyMs: number): void {
    this.lastLatencyMs = Math.max(0, Math.round(latencyMs));
    this.lastCheckedAt = new Date(this.now()).toISOString();
  }
}

/**
 * Every upstream source of the running service and how each is doing; backs GET /api/sources/health.
 * @example
 * const registry = new SourceHealthRegistry()
 * const monitor = registry.register({ name: 'coingecko', kind: 'prices', mode: 'local' })
 * registry.list() // [{ name: 'coingecko', state: 'up', ... }]
 */
export class SourceHealthRegistry {
  private readonly monitors = new Map<string, RegisteredSourceMonitor>();
  private readonly now: () => number;

  constructor(params: { now?: () => number } = {}) {
    this.now = params.now ?? Date.now;
  }

  register(registration: SourceRegistration): SourceMonitor {
    if (this.monitors.has(registration.name)) throw new SourceAlreadyRegisteredError(registration.name);
    const monitor = new RegisteredSourceMonitor({ ...registration }, this.now);
    this.monitors.set(registration.name, monitor);
    return monitor;
  }

  /** Every source's counts and breaker state, for /metrics. */
  *counts(): Generator<SourceCounts> {
    for (const m of this.monitors.values()) {
      yield { name: m.name, kind: m.kind, breaker: m.breaker, tally: m.tally };
    }
  }

  list(): SourceStatus[] {
    return [...this.monitors.values()]
      .map((monitor) => monitor.status())
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
