import { ApiError, isApiError } from '../errors/api-error.js';

/**
 * The error a CCIP-Read request answers for `err`: a refused argument (INVALID_PARAMETER) is the 400 CCIP_ERROR of
 * docs/api-contract.md#errors
 * with the same message, which ERC-3668 clients read; anything else stays itself. The REST routes (before the
 * operation runs) and the CCIP services (for GraphQL callers) both refuse with it.
 * @example ccipRequestError(invalidParameter('parameter data: must be 0x hex')).code // 'CCIP_ERROR'
 */
export function ccipRequestError(err: unknown): unknown {
  return isApiError(err) && err.code === 'INVALID_PARAMETER' ? new ApiError('CCIP_ERROR', err.message) : err;
}
