import { isBrokenCircuitError, TaskCancelledError } from 'cockatiel';
import { isApiError } from '../errors/api-error.js';
import type { UpstreamFailureKind } from '../observability/source-tally.js';

/**
 * What a fetcher throws when the upstream misbehaved; `retryable` says whether asking again may help.
 * The message reaches the health page, so it must name no secret and no full URL.
 * @example throw new UpstreamError('HTTP 503 from GET /api/v3/simple/price', { status: 503, retryable: true })
 */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** How long the upstream asked us to wait (429/503 Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, params: { status?: number; retryable: boolean; retryAfterMs?: number }) {
    super(message);
    this.status = params.status;
    this.retryable = params.retryable;
    this.retryAfterMs = params.retryAfterMs;
  }
}

/** An upstream call that outlasted its deadline (SourcePolicy.timeoutMs). */
export class UpstreamTimeoutError extends UpstreamError {
  override name = 'UpstreamTimeoutError';
  constructor(timeoutMs: number) {
    super(`timed out after ${Math.round(timeoutMs)}ms`, { retryable: true });
  }
}

/** Error codes Node's networking uses for failures worth a second try. */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

// cockatiel 3.2.1's own isTaskCancelledError tests the wrong marker property, so it never matches.
function isTimeout(err: unknown): boolean {
  return err instanceof TaskCancelledError || (err instanceof Error && err.name === 'TimeoutError');
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const cause = (err as { cause?: unknown }).cause;
  return cause === err ? undefined : errorCode(cause);
}

/**
 * An answer the source already shaped for our caller (our 4xx `ApiError`): not an upstream failure.
 * @example isPassThroughError(notFound('no such name')) // true
 */
export function isPassThroughError(err: unknown): boolean {
  return isApiError(err) && err.status < 500;
}

/**
 * Whether a failed upstream call may succeed when repeated: timeouts, network errors, 5xx and 429.
 * @example isRetryableFailure(new UpstreamError('HTTP 502', { status: 502, retryable: true })) // true
 */
export function isRetryableFailure(err: unknown): boolean {
  if (err instanceof UpstreamError) return err.retryable;
  if (isBrokenCircuitError(err) || isApiError(err)) return false;
  if (isTimeout(err)) return true;
  if (err instanceof Error && err.name === 'AbortError') return true;
  const code = errorCode(err);
  if (code !== undefined && TRANSIENT_NETWORK_CODES.has(code)) return true;
  // undici reports every connection-level failure as `TypeError: fetch failed`.
  return err instanceof TypeError && err.message === 'fetch failed';
}

/**
 * A short description of a failure for the health page; never the raw upstream text of unknown errors.
 * @example describeUpstreamFailure(new TaskCancelledError(), 5000) // 'timed out after 5000ms'
 */
export function describeUpstreamFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof UpstreamError) return err.message;
  if (isBrokenCircuitError(err)) return 'circuit breaker open';
  // Our deadline is the only thing that aborts a fetcher's signal.
  if (isTimeout(err) || (err instanceof Error && err.name === 'AbortError')) {
    return `timed out after ${timeoutMs}ms`;
  }
  if (isApiError(err)) return `${err.code} (${err.status})`;
  const code = errorCode(err);
  if (isRetryableFailure(err)) return code === undefined ? 'network error' : `network error (${code})`;
  return err instanceof Error ? `unexpected ${err.name}` : 'unexpected failure';
}

/**
 * Which kind of failure `err` is, as the `upstream_errors_total` label: a fixed set, never upstream text.
 * @example upstreamFailureKind(new UpstreamError('HTTP 502 on GET /x', { status: 502, retryable: true })) // 'http_5xx'
 */
export function upstreamFailureKind(err: unknown): UpstreamFailureKind {
  if (err instanceof UpstreamTimeoutError || isTimeout(err)) return 'timeout';
  if (isBrokenCircuitError(err)) return 'breaker_open';
  if (err instanceof UpstreamError) {
    const { status } = err;
    if (status === 429) return 'rate_limited';
    if (status !== undefined && status >= 500) return 'http_5xx';
    if (status !== undefined && status >= 400) return 'http_4xx';
    return err.retryable ? 'network' : 'invalid_reply';
  }
  if (err instanceof Error && err.name === 'AbortError') return 'timeout';
  if (!isApiError(err) && isRetryableFailure(err)) return 'network';
  return 'other';
}
