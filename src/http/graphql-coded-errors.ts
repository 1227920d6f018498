import { GraphQLError, type GraphQLFormattedError, Kind } from 'graphql';
import { ApiError } from '../errors/api-error.js';

/*
 * The errors a /graphql answer carries, with the codes and HTTP statuses GraphQL clients know from Apollo Server (which
 * answered /graphql before this pipeline, and still serves each subgraph alone): GRAPHQL_PARSE_FAILED,
 * GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT, OPERATION_RESOLUTION_FAILURE, PERSISTED_QUERY_NOT_FOUND, BAD_REQUEST,
 * INTERNAL_SERVER_ERROR, and the ApiError codes of refusals and field errors.
 */

/** The status and headers an error asks of its HTTP response (`extensions.http`, never sent to the client). */
export interface ResponseHead {
  status?: number | undefined;
  /** Lower-case names. */
  headers: Map<string, string>;
}

export function newResponseHead(status?: number): ResponseHead {
  return { status, headers: new Map() };
}

function coded(
  message: string,
  code: string,
  p: { http?: ResponseHead; from?: GraphQLError; extensions?: Record<string, unknown> } = {},
): GraphQLError {
  return new GraphQLError(message, {
    nodes: p.from?.nodes,
    source: p.from?.source,
    positions: p.from?.positions,
    originalError: p.from?.originalError ?? p.from,
    // `extensions.http` is a ResponseHead here (typed by Apollo Server's augmentation as a plain record).
    extensions: { ...(p.http ? { http: p.http } : {}), ...p.from?.extensions, ...p.extensions, code } as Record<
      string,
      unknown
    >,
  });
}

/** A request that is not a GraphQL request (400 unless `status`): no query, a body that is not a JSON object … */
export function badRequest(message: string, head: ResponseHead = newResponseHead(400)): GraphQLError {
  return coded(message, 'BAD_REQUEST', { http: head });
}

/** Nothing the client accepts can carry the answer (406). */
export function notAcceptable(): GraphQLError {
  return badRequest(
    "An 'accept' header was provided for this request which does not accept application/json; charset=utf-8 or application/graphql-response+json; charset=utf-8",
    newResponseHead(406),
  );
}

/** The document does not parse (400). */
export function syntaxError(error: GraphQLError): GraphQLError {
  return coded(error.message, 'GRAPHQL_PARSE_FAILED', { http: newResponseHead(400), from: error });
}

/** The document does not validate against the schema or the operation limits (400). */
export function validationError(error: GraphQLError): GraphQLError {
  return coded(error.message, 'GRAPHQL_VALIDATION_FAILED', { http: newResponseHead(400), from: error });
}

/** The operation to run cannot be chosen (400): an unknown operationName, or none given for several operations. */
export function operationResolutionError(error: GraphQLError): GraphQLError {
  return coded(error.message, 'OPERATION_RESOLUTION_FAILURE', { http: newResponseHead(400), from: error });
}

/** An APQ hash the server does not know (200, not cached): the client sends the query with it next. */
export function persistedQueryNotFound(): GraphQLError {
  const head = newResponseHead(200);
  head.headers.set('cache-control', 'private, no-cache, must-revalidate');
  return coded('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', { http: head });
}

/** A refusal of the access gate (401, 429 …) as a GraphQL error: its code, its details, its status and headers. */
export function refusalError(err: ApiError): GraphQLError {
  const head = newResponseHead(err.status);
  for (const [k, v] of Object.entries(err.headers)) head.headers.set(k.toLowerCase(), v);
  return new GraphQLError(err.message, {
    extensions: { code: err.code, ...err.extra, http: head } as Record<string, unknown>,
  });
}

/** Whether an execution error says that a variable's value does not coerce (BAD_USER_INPUT). */
function isVariableCoercionError(error: GraphQLError): boolean {
  const node = error.nodes?.length === 1 ? error.nodes[0] : undefined;
  if (node?.kind !== Kind.VARIABLE_DEFINITION) return false;
  const name = `Variable "$${node.variable.name.value}"`;
  return [' has invalid value', ' got invalid value ', ' of required type ', ' of non-null type '].some((rest) =>
    error.message.startsWith(name + rest),
  );
}

/** An execution error with the code it is answered with: variables that do not coerce are BAD_USER_INPUT. */
export function executionError(error: GraphQLError): GraphQLError {
  if (error.extensions.code == null && isVariableCoercionError(error)) {
    return coded(error.message, 'BAD_USER_INPUT', { from: error });
  }
  return error;
}

/** Anything thrown, as a GraphQL error (an internal error keeps its message, coded INTERNAL_SERVER_ERROR). */
export function asGraphQLError(thrown: unknown): GraphQLError {
  if (thrown instanceof GraphQLError) return thrown;
  if (thrown instanceof Error) return new GraphQLError(thrown.message, { originalError: thrown });
  return new GraphQLError(`Unexpected error value: ${String(thrown)}`);
}

function isResponseHead(value: unknown): value is ResponseHead {
  return (
    value !== null &&
    typeof value === 'object' &&
    (!('status' in value) || typeof value.status === 'number' || value.status === undefined) &&
    (!('headers' in value) || value.headers instanceof Map)
  );
}

/**
 * Errors as the answer carries them: each with a code (INTERNAL_SERVER_ERROR when it has none; BAD_REQUEST for a 4xx
 * that has none), its `extensions.http` moved onto the response `head`.
 * @example const errors = formatErrors([syntaxError(e)], head) // head.status 400; [{ message, locations, extensions: { code } }]
 */
export function formatErrors(errors: readonly GraphQLError[], head: ResponseHead): GraphQLFormattedError[] {
  return errors.map((error) => {
    const extensions: Record<string, unknown> = {
      ...error.extensions,
      code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR',
    };
    let status: number | undefined;
    if (isResponseHead(extensions.http)) {
      const http = extensions.http;
      status = http.status;
      if (http.status) head.status = http.status;
      for (const [k, v] of http.headers ?? []) head.headers.set(k, v);
      delete extensions.http;
    }
    // A 4xx without a code of its own is the client's mistake, not an internal error.
    if (extensions.code === 'INTERNAL_SERVER_ERROR' && status && status >= 400 && status < 500) {
      extensions.code = 'BAD_REQUEST';
    }
    return { ...error.toJSON(), extensions };
  });
}

/** Whether `err` is an ApiError the gate refused with (as opposed to an x402 offer, which is answered in the envelope). */
export function isOffer(err: unknown): err is ApiError {
  return err instanceof ApiError && err.code === 'PAYMENT_REQUIRED';
}
