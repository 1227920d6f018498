import { describe, expect, it } from 'vitest';
import { errorResponses, examplesByStatus } from '../../rest-compat/openapi/error-responses.js';
import { CcipGatewayError } from '../../src/errors/api-error.js';

describe("the OpenAPI error examples: one code per status, each answered with its code's status", () => {
  it('each example sits under the status its code is answered with', () => {
    const examples = examplesByStatus({ NOT_FOUND: 'not found', CONFLICT: 'already exists' });
    expect([...examples]).toEqual([
      [404, { code: 'NOT_FOUND', message: 'not found' }],
      [409, { code: 'CONFLICT', message: 'already exists' }],
    ]);
  });

  it('two codes answered with one status are refused, not one of them kept silently', () => {
    expect(() => examplesByStatus({ INVALID_PARAMETER: 'bad name', CCIP_ERROR: 'bad calldata' })).toThrow(
      'error examples: INVALID_PARAMETER and CCIP_ERROR are both answered 400; keep one',
    );
  });

  it("the CCIP routes' 500 shows the failing gateway's code, as CcipGatewayError answers it", () => {
    const errors = errorResponses();
    errors.ref(CcipGatewayError.status, 'ccip');
    const body = errors.responses.CcipInternalError?.content?.['application/json']?.example;
    expect(body).toMatchObject({ code: CcipGatewayError.code });
    expect(errors.responses.CcipInternalError?.description).toBe('CCIP gateway internal error (CCIP_ERROR)');
  });
});
