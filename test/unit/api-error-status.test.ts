import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CcipGatewayError,
  type ErrorCode,
  OversizedRequestError,
  RequestTimeoutError,
  STATUS_OF_CODE,
} from '../../src/errors/api-error.js';
import { renderError } from '../../src/errors/error-envelope.js';
import { apiErrorFromGraphQL } from '../../src/http/graphql-errors.js';

/**
 * The codes answered with each status, written out from the documents rather than read from the code under test:
 * docs/api-contract.md#errors (with 500 CCIP_ERROR apart: CcipGatewayError), the sign-in codes of
 * docs/api-contract.md#sign-in-errors with docs/access.md#sign-in-and-key-errors
 * (the contract's 402 and 404 show no code), and HTTP's own refusals answered in the envelope (docs/errors.md).
 */
const DOCUMENTED_CODES: Record<number, string[]> = {
  400: ['INVALID_PARAMETER', 'CCIP_ERROR', 'INVALID_REQUEST'],
  401: [
    ...['INVALID_NONCE', 'INVALID_SIGNATURE', 'INVALID_MESSAGE', 'EXPIRED_MESSAGE', 'DOMAIN_MISMATCH', 'TOKEN_EXPIRED'],
    ...['UNAUTHORIZED', 'INVALID_API_KEY'],
  ],
  402: ['PAYMENT_REQUIRED', 'INSUFFICIENT_CREDITS'],
  403: ['FORBIDDEN'],
  404: ['NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  500: ['INTERNAL_ERROR', 'CCIP_HEALTH_ERROR'],
  503: ['SERVICE_UNAVAILABLE'],
};
const DOCUMENTED_STATUS = Object.fromEntries(
  Object.entries(DOCUMENTED_CODES).flatMap(([status, codes]) => codes.map((code) => [code, Number(status)])),
);

describe('an ApiError answers with the HTTP status of its code', () => {
  it('each code has the status docs/errors.md gives it', () => {
    expect({ ...STATUS_OF_CODE }).toEqual(DOCUMENTED_STATUS);
    for (const [code, status] of Object.entries(DOCUMENTED_STATUS)) {
      const error = new ApiError(code as ErrorCode, 'why');
      expect(error.status, code).toBe(status);
      expect(error.extensions).toEqual({ code, status });
    }
  });

  it('an oversized request line is INVALID_PARAMETER answered 431, its one exception', () => {
    const error = new OversizedRequestError('request URL or headers are too large');
    expect([error.status, error.code]).toEqual([431, 'INVALID_PARAMETER']);
    expect(renderError(error, 'full').status).toBe(431);
    expect(renderError(error, 'full').body).toMatchObject({ code: 'INVALID_PARAMETER' });
  });

  it('a request not sent within the headers or request timeout is INVALID_REQUEST answered 408', () => {
    const error = new RequestTimeoutError('the request was not received in time');
    expect([error.status, error.code]).toEqual([408, 'INVALID_REQUEST']);
    expect(renderError(error, 'full').status).toBe(408);
  });

  it('a failing CCIP gateway is CCIP_ERROR answered 500, while a bad CCIP request is CCIP_ERROR answered 400', () => {
    expect(new CcipGatewayError('CCIP gateway internal error').status).toBe(500);
    expect(new ApiError('CCIP_ERROR', 'bad calldata').status).toBe(400);
  });
});

describe('an error from a subgraph reaches a REST caller rebuilt from its code and status', () => {
  const rebuilt = (extensions: Record<string, unknown>, message = 'why') => {
    const error = apiErrorFromGraphQL([{ message, extensions }]);
    return { name: error.name, status: error.status, code: error.code, message: error.message, extra: error.extra };
  };

  it('a code with its own status keeps both, its message and its extra fields, not the subgraph name', () => {
    expect(rebuilt({ code: 'CONFLICT', status: 409, serviceName: 'ccip', owner: 'x' })).toEqual({
      name: 'ApiError',
      status: 409,
      code: 'CONFLICT',
      message: 'why',
      extra: { owner: 'x' },
    });
    expect(rebuilt({ code: 'CCIP_HEALTH_ERROR', status: 500 })).toMatchObject({
      status: 500,
      code: 'CCIP_HEALTH_ERROR',
    });
  });

  it('a failing CCIP gateway stays 500 CCIP_ERROR', () => {
    const thrown = new CcipGatewayError('CCIP gateway internal error: the record store failed');
    expect(rebuilt(thrown.extensions, thrown.message)).toMatchObject({
      name: 'CcipGatewayError',
      status: 500,
      code: 'CCIP_ERROR',
      message: thrown.message,
    });
  });

  it('an internal error, an unknown code and a status its code is never answered with are 500 INTERNAL_ERROR, message withheld', () => {
    const internal = { status: 500, code: 'INTERNAL_ERROR', message: 'internal server error' };
    expect(rebuilt({ code: 'INTERNAL_ERROR', status: 500 }, 'secret detail')).toMatchObject(internal);
    expect(rebuilt({ code: 'INTERNAL_SERVER_ERROR' }, 'secret detail')).toMatchObject(internal);
    expect(rebuilt({ code: 'NOT_FOUND', status: 500 }, 'secret detail')).toMatchObject(internal);
    expect(rebuilt({ code: 'CCIP_ERROR', status: 503 }, 'secret detail')).toMatchObject(internal);
    expect(rebuilt({}, 'secret detail')).toMatchObject(internal);
  });
});
