import type { GraphQLFormattedError } from 'graphql';
import { ApiError, apiErrorOf } from '../errors/api-error.js';

/**
 * The first error of a GraphQL result as the ApiError a REST caller gets: subgraph resolvers throw ApiErrors,
 * whose code and status travel in `extensions` and rebuild it (`apiErrorOf`); anything else is an internal error,
 * whose message stays out of the answer.
 * @example apiErrorFromGraphQL([{ message: 'no such name', extensions: { code: 'NOT_FOUND', status: 404 } }]) // a 404
 */
export function apiErrorFromGraphQL(errors: readonly GraphQLFormattedError[]): ApiError {
  for (const e of errors) {
    // serviceName is the gateway's note of which subgraph failed: internal, not part of the envelope.
    const { code, status, serviceName: _n, ...extra } = (e.extensions ?? {}) as Record<string, unknown>;
    const error = apiErrorOf(code, status, e.message, extra);
    if (error) return error;
  }
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}
