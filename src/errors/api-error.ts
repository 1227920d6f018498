/** Every error code SPEC.md names, plus the access codes the README documents. */
export type ErrorCode =
  | 'INVALID_PARAMETER'
  | 'CCIP_ERROR'
  | 'INVALID_REQUEST'
  | 'PAYMENT_REQUIRED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'CCIP_HEALTH_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'INVALID_NONCE'
  | 'INVALID_SIGNATURE'
  | 'INVALID_MESSAGE'
  | 'EXPIRED_MESSAGE'
  | 'DOMAIN_MISMATCH'
  | 'TOKEN_EXPIRED'
  | 'UNAUTHORIZED'
  | 'INVALID_API_KEY'
  | 'INSUFFICIENT_CREDITS'
  | 'FORBIDDEN'
  | 'CONFLICT';

/**
 * The one error type of the service: thrown anywhere, rendered into an envelope in one place
 * (src/errors/error-envelope.ts).
 * @example throw new ApiError(400, 'INVALID_PARAMETER', 'name is not a valid ENS name')
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the envelope (e.g. retryAfter, tier, limit for RATE_LIMITED). */
    readonly extra: Record<string, unknown> = {},
    /** Response headers that belong to this error (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** graphql-js copies an original error's `extensions` into the GraphQL error: code and status travel with it. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, status: this.status, ...this.extra };
  }
}

export const invalidParameter = (message: string): ApiError => new ApiError(400, 'INVALID_PARAMETER', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'NOT_FOUND', message);
export const serviceUnavailable = (message: string): ApiError => new ApiError(503, 'SERVICE_UNAVAILABLE', message);

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
