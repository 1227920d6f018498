import type { GraphQLFormattedError } from 'graphql';
import { ApiError, isErrorCode, STATUS_OF_CODE } from '../errors/api-error.js';

const KNOWN_STATUS = new Set([400, 401, 402, 403, 404, 409, 429, 503]);

/**
 * The first error of a GraphQL result as the ApiError a REST caller gets: subgraph resolvers throw ApiErrors,
 * whose code and status travel in `extensions`; anything else is an internal error.
 */
export function apiErrorFromGraphQL(errors: readonly GraphQLFormattedError[]): ApiError {
  for (const e of errors) {
    const ext = (e.extensions ?? {}) as Record<string, unknown>;
    const status = typeof ext.status === 'number' ? ext.status : undefined;
    // A known status goes with its code's own (STATUS_OF_CODE): the error is rebuilt from the code alone.
    if (
      status !== undefined &&
      KNOWN_STATUS.has(status) &&
      isErrorCode(ext.code) &&
      STATUS_OF_CODE[ext.code] === status
    ) {
      // serviceName is the gateway's note of which subgraph failed: internal, not part of the envelope.
      const { code: _c, status: _s, serviceName: _n, ...extra } = ext;
      return new ApiError(ext.code, e.message, extra);
    }
  }
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}
