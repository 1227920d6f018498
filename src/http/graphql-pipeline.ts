import {
  type ExecutionResult,
  execute,
  type GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import { type AccessGate, type AccessRoute, admitsAtOnce } from '../access/access-gate.js';
import type { AccessRequest } from '../access/identify-caller.js';
import { ApiError } from '../errors/api-error.js';
import {
  asGraphQLError,
  badRequest,
  executionError,
  formatErrors,
  isOffer,
  newResponseHead,
  notAcceptable,
  operationResolutionError,
  type ResponseHead,
  refusalError,
} from './graphql-coded-errors.js';
import type { GraphqlDocuments, ValidDocument } from './graphql-documents.js';
import { answerContentType, type GraphqlHttpRequest, type GraphqlParams, graphqlParams } from './graphql-request.js';
import { graphqlResponseStatus } from './graphql-response-status.js';
import { type OperationCharges, operationRoute } from './operation-charge.js';
import { runAdmitted } from './run-admitted.js';

/** One /graphql request: the HTTP request, who is calling, and a fresh GraphQL context for its run. */
export interface GraphqlCall extends GraphqlHttpRequest {
  access: AccessRequest;
  context: () => GraphContext;
}

/** A /graphql answer, ready to send. */
export interface GraphqlAnswer {
  status: number;
  /** Lower-case names; the payment receipt's headers included. */
  headers: Map<string, string>;
  body: string;
  /** The code of the answer's first error (undefined: none), for observeOperation. */
  errorCode: string | undefined;
  /** Whether it carries data and no errors: only then is a paid operation charged. */
  succeeded: boolean;
}

/** A document that does not parse or validate is counted like an operation no row prices: Medium, not for sale. */
const UNRUN_DOCUMENT: AccessRoute = { tier: 'medium' };

/**
 * `JSON.stringify({ errors, data, extensions })` and a newline: the order graphql-js and GraphQL over HTTP give the
 * members, undefined ones left out. An answer with data alone (most) skips the wrapping object (3.5 against 5.0
 * thousand instructions for `{ __typename }`, callgrind).
 */
function responseBody(errors: unknown, data: unknown, extensions: unknown): string {
  if (errors === undefined && extensions === undefined && data !== undefined) {
    return `{"data":${JSON.stringify(data)}}\n`;
  }
  return `${JSON.stringify({ errors, data, extensions })}\n`;
}

function answerOf(
  head: ResponseHead,
  contentType: string,
  result: { errors?: GraphQLFormattedError[] | undefined; data?: unknown; extensions?: unknown },
  fallbackStatus: number,
): GraphqlAnswer {
  if (!head.headers.has('content-type')) head.headers.set('content-type', contentType);
  const { errors, data } = result;
  const status = graphqlResponseStatus({ status: head.status ?? fallbackStatus, contentType, errors, data });
  const body = responseBody(errors, data, result.extensions);
  const code = errors?.[0]?.extensions?.code;
  return {
    status,
    headers: head.headers,
    body,
    errorCode: errors?.length ? (typeof code === 'string' ? code : 'INTERNAL_ERROR') : undefined,
    succeeded: !errors?.length && data != null,
  };
}

/** Errors and no data: a request error (400) or a refusal (its status); 500 when no error says a status. */
function errorsAnswer(errors: readonly GraphQLError[], head: ResponseHead, contentType: string): GraphqlAnswer {
  return answerOf(head, contentType, { errors: formatErrors(errors, head) }, 500);
}

/** An execution result: its errors coded, a result without data (variables that do not coerce) a 400. */
function resultAnswer(result: ExecutionResult, head: ResponseHead, contentType: string): GraphqlAnswer {
  const errors = result.errors?.map(executionError);
  const formatted = errors ? formatErrors(errors, head) : undefined;
  if (errors?.length && result.data === undefined && !head.status) head.status = 400;
  return answerOf(head, contentType, { errors: formatted, data: result.data, extensions: result.extensions }, 200);
}

/**
 * THE /graphql pipeline, for every request (GET, POST, APQ, errors, refusals, x402 offers, paid successes), in one
 * sequence: the GraphQL request read from HTTP → the document (cache, APQ) → admission at the operation's tier and
 * price → execution on the in-process gateway's schema → settlement of a paid success → the answer, in the shapes
 * GraphQL clients know (Apollo Server's codes and statuses; GraphQL over HTTP's). An x402 offer and a failed
 * settlement are thrown (ApiError): x402 clients read the envelope's `accepts`, not `errors`.
 * @example const answer = await pipeline({ method: 'POST', headers, search: '', body, access, context })
 */
export function graphqlPipeline(deps: {
  schema: GraphQLSchema;
  access: AccessGate;
  charges: OperationCharges;
  documents: GraphqlDocuments;
}): (call: GraphqlCall) => GraphqlAnswer | Promise<GraphqlAnswer> {
  /**
   * Admission → run → settlement; a refusal answered as a GraphQL error (an offer thrown to the envelope). A run the
   * gate has nothing to decide for (free, no credentials) is the run alone: answered at once when it needs no promise.
   */
  const admitted = (
    call: GraphqlCall,
    route: AccessRoute,
    head: ResponseHead,
    contentType: string,
    run: () => GraphqlAnswer | Promise<GraphqlAnswer>,
  ): GraphqlAnswer | Promise<GraphqlAnswer> => {
    // A free operation without credentials: the gate's decision is fixed (no headers, nothing to count, settle or
    // release; access-gate.ts admitsAtOnce), so the run is all there is to it, with no decision made for it.
    if (admitsAtOnce(call.access, route)) return run();
    return admittedRun(call, route, head, contentType, run);
  };

  const admittedRun = async (
    call: GraphqlCall,
    route: AccessRoute,
    head: ResponseHead,
    contentType: string,
    run: () => GraphqlAnswer | Promise<GraphqlAnswer>,
  ): Promise<GraphqlAnswer> => {
    const { value, settled } = await runAdmitted({
      admit: () => deps.access.admit(call.access, route),
      run: (decision) => {
        for (const k in decision.headers) head.headers.set(k.toLowerCase(), decision.headers[k]!);
        return run();
      },
      paid: (answer) => answer.succeeded,
      refused: (refusal) => {
        if (isOffer(refusal)) throw refusal;
        const error = refusal instanceof ApiError ? refusalError(refusal) : asGraphQLError(refusal);
        return errorsAnswer([error], head, contentType);
      },
    });
    if (settled) for (const k in settled.headers) value.headers.set(k.toLowerCase(), settled.headers[k]!);
    return value;
  };

  /** The answer of an execution's result (or of what it threw), once it is in. */
  const answerOfRun = (
    result: ExecutionResult,
    operation: OperationDefinitionNode | undefined,
    head: ResponseHead,
    contentType: string,
  ): GraphqlAnswer => {
    if (!operation) {
      const first = result.errors?.[0];
      const error = first ? operationResolutionError(first) : asGraphQLError(new Error('no operation to run'));
      return errorsAnswer([error], head, contentType);
    }
    return resultAnswer(result, head, contentType);
  };

  /** Executes the document: answered at once when no resolver returns a promise (graphql-js then returns none). */
  const run = (
    call: GraphqlCall,
    params: GraphqlParams,
    valid: ValidDocument,
    head: ResponseHead,
    contentType: string,
  ): GraphqlAnswer | Promise<GraphqlAnswer> => {
    const operation = valid.operation(params.operationName);
    let result: ExecutionResult | Promise<ExecutionResult>;
    try {
      result = execute({
        schema: deps.schema,
        document: valid.document,
        contextValue: call.context(),
        variableValues: params.variables,
        operationName: params.operationName,
      });
    } catch (thrown) {
      return errorsAnswer([asGraphQLError(thrown)], head, contentType);
    }
    if (!(result instanceof Promise)) return answerOfRun(result, operation, head, contentType);
    return result.then(
      (done) => answerOfRun(done, operation, head, contentType),
      (thrown: unknown) => errorsAnswer([asGraphQLError(thrown)], head, contentType),
    );
  };

  return (call) => {
    let params: GraphqlParams;
    try {
      params = graphqlParams(call);
    } catch (err) {
      // Not a GraphQL request: answered in JSON even to a client that accepts nothing else.
      const contentType = answerContentType(call.headers.accept) ?? 'application/json; charset=utf-8';
      return errorsAnswer([asGraphQLError(err)], newResponseHead(), contentType);
    }
    const contentType = answerContentType(call.headers.accept);
    if (contentType === null)
      return errorsAnswer([notAcceptable()], newResponseHead(), 'application/json; charset=utf-8');
    const head = newResponseHead();
    const source = deps.documents.source(params);
    if ('errors' in source) return errorsAnswer(source.errors, head, contentType);
    const prepared = deps.documents.prepare(source.query);
    // A text that made the server parse it is counted against the caller even when it does not run.
    if ('errors' in prepared) {
      return admitted(call, UNRUN_DOCUMENT, head, contentType, () => errorsAnswer(prepared.errors, head, contentType));
    }
    const operation = prepared.operation(params.operationName);
    if (call.method === 'GET' && operation && operation.operation !== 'query') {
      const refused = newResponseHead(405);
      refused.headers.set('allow', 'POST');
      const message = `GET requests only support query operations, not ${operation.operation} operations`;
      return errorsAnswer([badRequest(message, refused)], head, contentType);
    }
    const route = operationRoute(operation, prepared.document, deps.charges);
    return admitted(call, route, head, contentType, () => {
      if (source.persist !== undefined) deps.documents.persist(source.persist, source.query);
      return run(call, params, prepared, head, contentType);
    });
  };
}
