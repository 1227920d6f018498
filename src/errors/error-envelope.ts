import { ApiError } from './api-error.js';

/**
 * `full` for /api routes (docs/api-contract.md#error-envelopes); `ccip` for ERC-3668 routes, whose clients read
 * `message`.
 */
export type EnvelopeStyle = 'full' | 'ccip';

export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Anything thrown becomes an ApiError; what is not one is an internal error whose detail stays in the log. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}

/**
 * The one place an error becomes a response body.
 * @example renderError(new ApiError('NOT_FOUND', 'no such name'), 'full', new Date())
 */
export function renderError(err: unknown, style: EnvelopeStyle, now: Date = new Date()): RenderedError {
  const e = toApiError(err);
  // `extra` comes after `error` so that x402's 402 body can carry its `error` string (src/access/payment-offer.ts).
  const body =
    style === 'ccip'
      ? { error: e.message, code: e.code, message: e.message, ...e.extra }
      : { error: true, code: e.code, message: e.message, ...e.extra, timestamp: now.toISOString() };
  return { status: e.status, headers: e.headers, body };
}
