/*
 * What the /graphql route tells observeOperation about a request, read from the HTTP request and the answer's text
 * alone, so that it holds whatever pipeline executes the operation.
 */

/** `query Name`, `mutation Name` or `subscription Name` at the start of a line (comments start with `#`). */
const NAMED_OPERATION = /^[ \t]*(?:query|mutation|subscription)[ \t]+([_A-Za-z][_0-9A-Za-z]*)/m;

/**
 * The operation name a /graphql request asks for: its `operationName` (body or query string), else the name of the
 * first named operation in its document. Only a label: observeOperation keeps it only when it is a published name.
 * @example graphqlOperationName({ body: { query: 'query Prices { tokenPrices … }' }, query: {} }) // 'Prices'
 */
export function graphqlOperationName(request: { body: unknown; query: unknown }): string | undefined {
  const params = (request.body && typeof request.body === 'object' ? request.body : request.query) as
    | { operationName?: unknown; query?: unknown }
    | undefined;
  if (typeof params?.operationName === 'string' && params.operationName !== '') return params.operationName;
  if (typeof params?.query !== 'string') return undefined;
  return NAMED_OPERATION.exec(params.query)?.[1];
}

/**
 * The code of the first error in a GraphQL answer's JSON text, undefined when it reports none; the text is parsed
 * only when it holds an `"errors"` key (the rare case).
 * @example graphqlAnswerErrorCode('{"errors":[{"message":"…","extensions":{"code":"RATE_LIMITED"}}]}') // 'RATE_LIMITED'
 */
export function graphqlAnswerErrorCode(answer: string): string | undefined {
  if (!answer.includes('"errors"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return undefined;
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const code = (errors[0] as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_ERROR';
}
