/*
 * What the /graphql route tells observeOperation about a request, read from the HTTP request alone.
 */

/** `query Name`, `mutation Name` or `subscription Name` at the start of a line (comments start with `#`). */
const NAMED_OPERATION = /^[ \t]*(?:query|mutation|subscription)[ \t]+([_A-Za-z][_0-9A-Za-z]*)/m;

/**
 * The name of the first operation of `query` named at the start of a line: what {@link graphqlOperationName} reads
 * from a document when the request names no operation.
 * @example namedOperationIn('query Prices { tokenPrices … }') // 'Prices'
 */
export function namedOperationIn(query: string): string | undefined {
  return NAMED_OPERATION.exec(query)?.[1];
}

/**
 * The operation name a /graphql request asks for: its `operationName` (body or query string), else the name of the
 * first named operation in its document ({@link namedOperationIn}, or `nameIn`, which must answer as it does: a
 * cache of it). Only a label: observeOperation keeps it only when it is a published name.
 * @example graphqlOperationName({ body: { query: 'query Prices { tokenPrices … }' }, query: {} }) // 'Prices'
 */
export function graphqlOperationName(
  request: { body: unknown; query: unknown },
  nameIn: (query: string) => string | undefined = namedOperationIn,
): string | undefined {
  const params = (request.body && typeof request.body === 'object' ? request.body : request.query) as
    | { operationName?: unknown; query?: unknown }
    | undefined;
  if (typeof params?.operationName === 'string' && params.operationName !== '') return params.operationName;
  if (typeof params?.query !== 'string') return undefined;
  return nameIn(params.query);
}
