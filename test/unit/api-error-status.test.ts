import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CcipGatewayError,
  type ErrorCode,
  OversizedRequestError,
  STATUS_OF_CODE,
} from '../../src/errors/api-error.js';
import { renderError } from '../../src/errors/error-envelope.js';

describe('an ApiError answers with the HTTP status of its code', () => {
  it("each code has one status, as SPEC's error table gives it", () => {
    for (const [code, status] of Object.entries(STATUS_OF_CODE)) {
      const error = new ApiError(code as ErrorCode, 'why');
      expect(error.status, code).toBe(status);
      expect(error.extensions).toEqual({ code, status });
    }
    expect(new ApiError('INVALID_PARAMETER', 'bad').status).toBe(400);
    expect(new ApiError('RATE_LIMITED', 'slow down').status).toBe(429);
    expect(new ApiError('SERVICE_UNAVAILABLE', 'down').status).toBe(503);
  });

  it('an oversized request line is INVALID_PARAMETER answered 431, its one exception', () => {
    const error = new OversizedRequestError('request URL or headers are too large');
    expect([error.status, error.code]).toEqual([431, 'INVALID_PARAMETER']);
    expect(renderError(error, 'full').status).toBe(431);
    expect(renderError(error, 'full').body).toMatchObject({ code: 'INVALID_PARAMETER' });
  });

  it('a failing CCIP gateway is CCIP_ERROR answered 500, while a bad CCIP request is CCIP_ERROR answered 400', () => {
    expect(new CcipGatewayError('CCIP gateway internal error').status).toBe(500);
    expect(new ApiError('CCIP_ERROR', 'bad calldata').status).toBe(400);
  });
});
