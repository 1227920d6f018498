import {
  ApolloServer,
  type ApolloServerOptionsWithGateway,
  type ApolloServerPlugin,
  HeaderMap,
  type HTTPGraphQLResponse,
} from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionResult, execute, GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import type { AccessDecision, AccessGate } from '../access/access-gate.js';
import type { AccessRequest } from '../access/identify-caller.js';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import { maxAliasesRule, maxCostRule, maxDepthRule } from '../gateway/operation-limits.js';
import { graphqlAnswerErrorCode, graphqlOperationName } from '../observability/graphql-request-observation.js';
import { observeOperation } from '../observability/http/observe-operation.js';
import type { OperationTallies } from '../observability/operation-tallies.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import { renderGraphiqlPage } from './graphiql-page.js';
import { graphiqlTabs } from './graphiql-tabs.js';
import { GraphqlDocuments } from './graphql-documents.js';
import { graphqlResponseStatus } from './graphql-response-status.js';
import { type ChargedRow, type OperationCharges, operationCharges, operationRoute } from './operation-charge.js';
import { requestResource } from './rest-routes.js';
import { htmlPageHeaders } from './security-headers.js';

/**
 * What the access plugin learnt about one request, for the handler that sends its response: Apollo answers the
 * GraphQL; the handler renders an x402 offer and settles a payment.
 */
interface Admission {
  /**
   * Set when the direct path (below) has already admitted the operation: Apollo Server, answering it after all, takes
   * that outcome instead of counting the call again — the decision, or the refusal it threw.
   */
  decided?: { decision: AccessDecision } | { refusal: unknown };
  /** Set with `decided` once the direct path ran the operation: Apollo Server renders this outcome, not a new run. */
  executed?: { result: ExecutionResult } | { thrown: unknown };
  /** An x402 offer or refused payment (402 PAYMENT_REQUIRED): answered in the envelope, which x402 clients read. */
  offer?: ApiError;
  /** Present on a paid operation: settles the payment (AccessDecision.settle). */
  settle?: AccessDecision['settle'];
  /** Present with `settle`: gives an unsettled payment back once the response is done (AccessDecision.abandon). */
  abandon?: AccessDecision['abandon'];
  /** Whether the operation produced its data without errors: only then is a payment settled. */
  succeeded?: boolean;
}

type GraphqlContext = GraphContext & { access: AccessRequest; admission: Admission };

/** How a /graphql request was answered: here, directly (data without errors), or by Apollo Server. */
type GraphqlOutcome =
  | { kind: 'direct'; decision: AccessDecision; body: string; contentType: string }
  | { kind: 'apollo'; result: HTTPGraphQLResponse };

function graphQLErrorFrom(err: ApiError): GraphQLError {
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(err.headers)) headers.set(k.toLowerCase(), v);
  return new GraphQLError(err.message, {
    // Apollo Server reads `extensions.http` (status and a HeaderMap) to set the HTTP response.
    extensions: { code: err.code, ...err.extra, http: { status: err.status, headers } } as Record<string, unknown>,
  });
}

/**
 * Apollo's own refusals of a request that carry no code (a persisted query whose hash does not match its query, an
 * unsupported persisted-query version) are 400s: they say BAD_REQUEST, not Apollo's fallback INTERNAL_SERVER_ERROR.
 */
function badRequestCode(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const status = error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : 0;
  if (formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR' || !status || status < 400 || status >= 500)
    return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } };
}

function accessPlugin(access: AccessGate, charges: OperationCharges): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      let release: (() => void) | undefined;
      return {
        async didResolveOperation({ operation, document, contextValue, response }) {
          const { decided } = contextValue.admission;
          try {
            if (decided && 'refusal' in decided) throw decided.refusal;
            const decision = decided
              ? decided.decision
              : await access.admit(contextValue.access, operationRoute(operation, document, charges));
            release = decision.release;
            contextValue.admission.settle = decision.settle;
            contextValue.admission.abandon = decision.abandon;
            for (const [k, v] of Object.entries(decision.headers)) response.http.headers.set(k.toLowerCase(), v);
          } catch (err) {
            if (err instanceof ApiError && err.code === 'PAYMENT_REQUIRED') contextValue.admission.offer = err;
            throw err instanceof ApiError ? graphQLErrorFrom(err) : err;
          }
        },
        // The operation has run: an API key's concurrency slot is free again.
        async willSendResponse({ response, contextValue }) {
          release?.();
          const { body } = response;
          contextValue.admission.succeeded =
            body.kind === 'single' && !body.singleResult.errors?.length && body.singleResult.data != null;
        },
      };
    },
  };
}

/**
 * The in-process gateway as Apollo Server's executor: Apollo parses, validates, admits (accessPlugin) and formats;
 * this runs the operation — or hands over the outcome the direct path already has, so that Apollo renders its errors.
 */
function inProcessExecutor(gateway: InProcessGateway): ApolloServerOptionsWithGateway<GraphqlContext>['gateway'] {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: gateway.apiSchema, coreSupergraphSdl: gateway.supergraphSdl });
      return () => {};
    },
    load: async () => ({
      executor: async ({ document, request, context }) => {
        const { executed } = (context as GraphqlContext).admission;
        if (executed) {
          if ('thrown' in executed) throw executed.thrown;
          return executed.result;
        }
        return execute({
          schema: gateway.apiSchema,
          document,
          contextValue: context,
          variableValues: request.variables,
          operationName: request.operationName,
        });
      },
    }),
    stop: async () => {},
  };
}

/** A POST body the direct path takes: a query with optional variables and operation name, no extensions (APQ). */
function plainGraphqlBody(
  body: unknown,
): { query: string; variables: Record<string, unknown> | undefined; operationName: string | undefined } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const { query, variables, operationName, ...rest } = body as Record<string, unknown>;
  for (const _ in rest) return;
  if (typeof query !== 'string' || query === '') return;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return;
  if (operationName != null && typeof operationName !== 'string') return;
  return {
    query,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: operationName ?? undefined,
  };
}

/** The content type Apollo Server picks for a few plain Accept headers; any other Accept is left to Apollo. */
const CONTENT_TYPE_BY_ACCEPT = new Map<string | undefined, string>([
  [undefined, 'application/json; charset=utf-8'],
  ['*/*', 'application/json; charset=utf-8'],
  ['application/json', 'application/json; charset=utf-8'],
  ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
]);

/**
 * POST and GET /graphql through Apollo Server over the in-process gateway, with GraphQL Armor-style
 * depth, alias, token and cost limits and the same access rules as REST. A browser's plain GET gets GraphiQL.
 */
export async function registerGraphqlRoute(
  app: FastifyInstance,
  deps: {
    gateway: InProcessGateway;
    access: AccessGate;
    /** The route table's operation rows: a root field is charged like the cheapest row that runs the caller's selection. */
    operations: readonly ChargedRow[];
    contexts: GraphContextFactory;
    limits: AppConfig['graphql'];
    /** X402_DEFAULT_PRICE_USD: the price of a root field that no REST row exposes. */
    defaultPriceUsd: string;
    /** PUBLIC_BASE_URL: the origin of the x402 `resource` URL (else the request's). */
    publicBaseUrl?: string | undefined;
    /** Each operation's run, for /metrics (and its span). */
    operationTallies: OperationTallies;
  },
): Promise<ApolloServer<GraphqlContext>> {
  const rules = [
    maxDepthRule(deps.limits.maxDepth),
    maxAliasesRule(deps.limits.maxAliases),
    maxCostRule(deps.limits.maxCost),
  ];
  const charges = operationCharges(deps.operations, deps.defaultPriceUsd);
  const server = new ApolloServer<GraphqlContext>({
    gateway: inProcessExecutor(deps.gateway),
    introspection: true,
    // Shutdown is ours (src/server/start-server.ts): Apollo's own SIGTERM handler would exit before the chain and store close.
    stopOnTerminationSignals: false,
    // Callers authenticate with headers (bearer token, X-API-Key, x402), never cookies: no CSRF surface.
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    formatError: badRequestCode,
    parseOptions: { maxTokens: deps.limits.maxTokens },
    validationRules: rules,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // No field sets a cache hint; answers carry the Cache-Control the HTTP layer gives them.
      ApolloServerPluginCacheControlDisabled(),
      accessPlugin(deps.access, charges),
    ],
  });
  await server.start();
  const documents = new GraphqlDocuments({ schema: deps.gateway.apiSchema, maxTokens: deps.limits.maxTokens, rules });
  const graphiql = renderGraphiqlPage({ endpoint: '/graphql', tabs: graphiqlTabs() });
  // GraphiQL's scroll lock (react-remove-scroll) adds a <style> element at run time: styles inline, scripts by hash.
  const graphiqlHeaders = await htmlPageHeaders(graphiql, { styles: 'unsafe-inline' });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const wantsPage =
      request.method === 'GET' &&
      !new URLSearchParams(search).has('query') &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return reply.headers(graphiqlHeaders).type('text/html; charset=utf-8').send(graphiql);
    const admission: Admission = {};
    reply.raw.once('close', () => admission.abandon?.());
    const access: AccessRequest = {
      ip: request.ip,
      headers: request.headers,
      resource: () => requestResource(request, deps.publicBaseUrl),
    };
    const context = () => ({ ...deps.contexts.create(request), access, admission });
    // The one point where a /graphql operation is observed (observe-operation.ts), whichever path answers it.
    const outcome = await observeOperation(
      deps.operationTallies,
      { surface: 'graphql', name: graphqlOperationName(request) },
      () => runGraphqlRequest(),
      (ran) =>
        ran.kind === 'apollo' && ran.result.body.kind === 'complete'
          ? graphqlAnswerErrorCode(ran.result.body.string)
          : undefined,
    );
    if (outcome.kind === 'direct') {
      const { decision, body, contentType } = outcome;
      // x402 'exact', as below: settled before the data is sent; a failed settlement throws and sends none.
      const receipt = decision.settle ? (await decision.settle()).headers : {};
      reply.code(200);
      for (const [k, v] of Object.entries(decision.headers)) reply.header(k.toLowerCase(), v);
      return reply.header('content-type', contentType).headers(receipt).send(body);
    }
    const { result } = outcome;

    async function runGraphqlRequest(): Promise<GraphqlOutcome> {
      // The direct path: a plain POST of a query already known valid, admitted and run here, and answered here when
      // it produced data without errors (the bytes Apollo Server sends for it). Anything else, or any error, is
      // answered by Apollo Server below, given what this path already decided and ran (Admission), so nothing runs
      // twice.
      const plain = request.method === 'POST' ? plainGraphqlBody(request.body) : undefined;
      const directType = CONTENT_TYPE_BY_ACCEPT.get(request.headers.accept);
      const valid = plain && directType ? documents.get(plain.query) : null;
      const operation = plain && valid?.operation(plain.operationName);
      let contextValue: GraphqlContext | undefined;
      if (plain && valid && operation && directType) {
        contextValue = context();
        let decision: AccessDecision | undefined;
        try {
          decision = await deps.access.admit(access, operationRoute(operation, valid.document, charges));
          admission.decided = { decision };
          admission.abandon = decision.abandon;
        } catch (refusal) {
          admission.decided = { refusal };
        }
        if (decision) {
          let result: ExecutionResult | undefined;
          try {
            result = await execute({
              schema: deps.gateway.apiSchema,
              document: valid.document,
              contextValue,
              variableValues: plain.variables,
              operationName: plain.operationName,
            });
            admission.executed = { result };
          } catch (thrown) {
            admission.executed = { thrown };
          }
          if (result && !result.errors?.length && result.data != null) {
            decision.release();
            const body = `${JSON.stringify({ errors: undefined, data: result.data, extensions: result.extensions })}\n`;
            return { kind: 'direct', decision, body, contentType: directType };
          }
        }
      }
      const headers = new HeaderMap();
      for (const [k, v] of Object.entries(request.headers)) {
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      const answered = await server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: request.method, headers, search, body: request.body },
        context: async () => contextValue ?? context(),
      });
      return { kind: 'apollo', result: answered };
    }
    // An x402 offer goes through the one error renderer: x402 clients read its body (`accepts`), not Apollo's `errors`.
    if (admission.offer) throw admission.offer;
    let body: string;
    if (result.body.kind === 'complete') body = result.body.string;
    else {
      const chunks: string[] = [];
      for await (const chunk of result.body.asyncIterator) chunks.push(chunk);
      body = chunks.join('');
    }
    // x402 'exact': a paid operation that produced its data is settled before it is sent (a failed settlement throws
    // and sends no data); one that failed is not charged.
    const receipt = admission.settle && admission.succeeded ? (await admission.settle()).headers : {};
    const contentType = result.headers.get('content-type');
    reply.code(graphqlResponseStatus({ status: result.status ?? 200, contentType, body }));
    for (const [k, v] of result.headers) reply.header(k, v);
    return reply.headers(receipt).send(body);
  };
  app.route({ method: ['GET', 'POST'], url: '/graphql', handler });
  return server;
}
