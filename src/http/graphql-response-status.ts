import type { GraphQLFormattedError } from 'graphql';

/**
 * Codes Apollo Server gives GraphQL request errors: the document does not parse or validate, the operation cannot be
 * chosen, or the variables do not coerce. A malformed HTTP request (`BAD_REQUEST`: no query, a body that is not JSON)
 * is not one of them.
 */
const REQUEST_ERROR_CODES: ReadonlySet<string> = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_USER_INPUT',
]);

/**
 * The HTTP status of a /graphql answer under GraphQL over HTTP: a client that accepts only `application/json` gets
 * 200 for every well-formed request, request errors included (its status codes predate the spec, and legacy clients
 * read `errors`, not the status); `application/graphql-response+json` keeps the 4xx.
 * @example graphqlResponseStatus({ status: 400, contentType: 'application/json; charset=utf-8', errors, data: undefined }) // 200 for a parse failure
 */
export function graphqlResponseStatus(p: {
  status: number;
  contentType: string;
  errors: readonly GraphQLFormattedError[] | undefined;
  data: unknown;
}): number {
  if (p.status !== 400 || !p.contentType.startsWith('application/json') || p.data !== undefined) return p.status;
  if (!p.errors?.length) return p.status;
  return p.errors.every((e) => REQUEST_ERROR_CODES.has(String(e.extensions?.code))) ? 200 : p.status;
}
