/**
 * Every error code of docs/api-contract.md#errors and docs/errors.md, with the HTTP status each one is answered with:
 * the one place a status is decided. Three answers differ from their code's status and have their own error classes
 * below: a 431 for an oversized request line, a 408 for a request not sent in time, a 500 for a failing CCIP gateway.
 */
export const STATUS_OF_CODE = {
  INVALID_PARAMETER: 400,
  CCIP_ERROR: 400,
  INVALID_REQUEST: 400,
  PAYMENT_REQUIRED: 402,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  CCIP_HEALTH_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  INVALID_NONCE: 401,
  INVALID_SIGNATURE: 401,
  INVALID_MESSAGE: 401,
  EXPIRED_MESSAGE: 401,
  DOMAIN_MISMATCH: 401,
  TOKEN_EXPIRED: 401,
  UNAUTHORIZED: 401,
  INVALID_API_KEY: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  CONFLICT: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS_OF_CODE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(STATUS_OF_CODE, value);
}

/**
 * The one error type of the service: thrown anywhere, rendered into an envelope in one place
 * (src/errors/error-envelope.ts). Its HTTP status follows from its code (STATUS_OF_CODE).
 * @example throw new ApiError('INVALID_PARAMETER', 'name is not a valid ENS name') // a 400
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the envelope (e.g. retryAfter, tier, limit for RATE_LIMITED). */
    readonly extra: Record<string, unknown> = {},
    /** Response headers that belong to this error (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = STATUS_OF_CODE[code];
  }

  /** graphql-js copies an original error's `extensions` into the GraphQL error: code and status travel with it. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, status: this.status, ...this.extra };
  }
}

/**
 * A request line or headers too large to read: docs/api-contract.md#errors INVALID_PARAMETER, answered 431 as HTTP has
 * it.
 * @example new OversizedRequestError('request URL or headers are too large').status // 431
 */
export class OversizedRequestError extends ApiError {
  static readonly code = 'INVALID_PARAMETER' satisfies ErrorCode;
  static readonly status = 431;
  override name = 'OversizedRequestError';
  override readonly status = OversizedRequestError.status;
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(OversizedRequestError.code, message, extra);
  }
}

/**
 * A client that did not send its request's headers (or the whole request) in time: INVALID_REQUEST, answered 408.
 * @example new RequestTimeoutError('the request was not received in time').status // 408
 */
export class RequestTimeoutError extends ApiError {
  static readonly code = 'INVALID_REQUEST' satisfies ErrorCode;
  static readonly status = 408;
  override name = 'RequestTimeoutError';
  override readonly status = RequestTimeoutError.status;
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(RequestTimeoutError.code, message, extra);
  }
}

/**
 * docs/api-contract.md#errors "500 CCIP_ERROR: the CCIP gateway failed", beside the 400 CCIP_ERROR of a bad CCIP
 * request.
 * @example new CcipGatewayError('CCIP gateway internal error: the record store failed').status // 500
 */
export class CcipGatewayError extends ApiError {
  static readonly code = 'CCIP_ERROR' satisfies ErrorCode;
  static readonly status = 500;
  override name = 'CcipGatewayError';
  override readonly status = CcipGatewayError.status;
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(CcipGatewayError.code, message, extra);
  }
}

/** The errors answered with another status than their code's: with STATUS_OF_CODE, every (code, status) answered. */
const OFF_TABLE_ERRORS = [OversizedRequestError, RequestTimeoutError, CcipGatewayError] as const;

/**
 * The ApiError that `code` and `status` describe (as an error's `extensions` carry them), or undefined when the
 * service answers no such pair: STATUS_OF_CODE's pairs and the off-table classes above. INTERNAL_ERROR is never
 * rebuilt, so that a message meant for the log cannot reach a caller.
 * @example apiErrorOf('CCIP_ERROR', 500, 'CCIP gateway internal error') // a CcipGatewayError
 */
export function apiErrorOf(
  code: unknown,
  status: unknown,
  message: string,
  extra: Record<string, unknown> = {},
): ApiError | undefined {
  if (!isErrorCode(code) || code === 'INTERNAL_ERROR') return undefined;
  if (STATUS_OF_CODE[code] === status) return new ApiError(code, message, extra);
  const OffTable = OFF_TABLE_ERRORS.find((error) => error.code === code && error.status === status);
  return OffTable ? new OffTable(message, extra) : undefined;
}

export const invalidParameter = (message: string): ApiError => new ApiError('INVALID_PARAMETER', message);
export const notFound = (message: string): ApiError => new ApiError('NOT_FOUND', message);
export const serviceUnavailable = (message: string): ApiError => new ApiError('SERVICE_UNAVAILABLE', message);

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
