import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessGate } from '../access/access-gate.js';
import type { AccessRequest } from '../access/identify-caller.js';
import type { AppConfig } from '../config/config.js';
import type { TrustProxy } from '../config/trust-proxy.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import { maxAliasesRule, maxCostRule, maxDepthRule } from '../gateway/operation-limits.js';
import { graphqlOperationName } from '../observability/graphql-request-observation.js';
import type { OperationTallies } from '../observability/operation-tallies.js';
import { sendGraphqlRequestError } from './error-handler.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import { renderGraphiqlPage } from './graphiql-page.js';
import { graphiqlTabs } from './graphiql-tabs.js';
import { GraphqlDocuments } from './graphql-documents.js';
import { type GraphqlAnswer, graphqlPipeline } from './graphql-pipeline.js';
import { graphqlSseHandler, graphqlWebSocket, wantsEventStream } from './graphql-streams.js';
import { keepMalformedJson } from './json-body.js';
import { liveOperations } from './live-operations.js';
import { observeOperation } from './observability/observe-operation.js';
import { type ChargedRow, operationCharges } from './operation-charge.js';
import { RestAccessRequest } from './rest-routes.js';
import { htmlPageHeaders } from './security-headers.js';
import { proxyTrust } from './trusted-proxies.js';

export interface GraphqlRouteDeps {
  gateway: InProcessGateway;
  access: AccessGate;
  /** The route table's operation rows: a root field is charged like the cheapest row that runs the caller's selection. */
  operations: readonly ChargedRow[];
  contexts: GraphContextFactory;
  limits: AppConfig['graphql'];
  /** Subscriptions: the cap per caller, the events per counted call, the buffer (docs/live-data.md). */
  live: AppConfig['live'];
  /** X402_DEFAULT_PRICE_USD: the price of a root field that no REST row exposes. */
  defaultPriceUsd: string;
  /** PUBLIC_BASE_URL: the origin of the x402 `resource` URL (else the request's). */
  publicBaseUrl?: string | undefined;
  /** Each operation's run, for /metrics (and its span). */
  operationTallies: OperationTallies;
  /** TRUST_PROXY: a WebSocket upgrade's caller is found as request.ip is (graphql-streams.ts). */
  trustProxy: TrustProxy;
}

/** How long after listening the documents are warmed: past the start's own work, before most first callers. */
const WARM_DELAY_MS = 300;

/**
 * Runs `warm` once, a moment after the server listens (never on the start's time, nor on a request's; not at all if it
 * closes first): the first parse and validation of a document compile graphql-js's rules and the limits' visitors
 * (graphql-js took 8 ms of the ~110 ms of CPU of a first cross-subgraph request, profiled at load 15; most of the rest
 * is its sources' first upstream calls), and the GraphiQL examples a newcomer sends first are then cached.
 */
function warmAfterListening(app: FastifyInstance, warm: () => void): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onListen', (done) => {
    timer = setTimeout(warm, WARM_DELAY_MS);
    timer.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearTimeout(timer);
    done();
  });
}

/** What observeOperation records of an answer: the code of its first error. */
const errorCodeOfAnswer = (answered: GraphqlAnswer): string | undefined => answered.errorCode;

/** Writes a pipeline's answer: its status, its headers, its body. */
function sendAnswer(reply: FastifyReply, answer: GraphqlAnswer): void {
  reply.code(answer.status);
  for (const [k, v] of answer.headers) reply.header(k, v);
  reply.send(answer.body);
}

/** A browser's plain GET (no `query`, HTML accepted) opens GraphiQL. */
function wantsPage(request: FastifyRequest, search: string): boolean {
  return (
    request.method === 'GET' &&
    (request.headers.accept ?? '').includes('text/html') &&
    !new URLSearchParams(search).has('query')
  );
}

/**
 * GET and POST /graphql: GraphiQL for a browser, every GraphQL request through the one pipeline
 * (graphql-pipeline.ts) with GraphQL Armor-style depth, alias, token and cost limits and the same access rules as
 * REST. A body that is not JSON, too large or of another type is answered in GraphQL's error shape too.
 * @example await registerGraphqlRoute(app, { gateway, access, operations, contexts, limits, defaultPriceUsd, operationTallies })
 */
export async function registerGraphqlRoute(app: FastifyInstance, deps: GraphqlRouteDeps): Promise<void> {
  const rules = [
    maxDepthRule(deps.limits.maxDepth),
    maxAliasesRule(deps.limits.maxAliases),
    maxCostRule(deps.limits.maxCost),
  ];
  const charges = operationCharges(deps.operations, deps.defaultPriceUsd);
  const documents = new GraphqlDocuments({ schema: deps.gateway.apiSchema, maxTokens: deps.limits.maxTokens, rules });
  const pipeline = graphqlPipeline({ schema: deps.gateway.apiSchema, access: deps.access, charges, documents });
  const access = (request: FastifyRequest): AccessRequest => new RestAccessRequest(request, deps.publicBaseUrl);
  // Subscriptions (and any operation sent so): GraphQL over SSE and over WebSocket (graphql-streams.ts).
  const streams = liveOperations({
    schema: deps.gateway.apiSchema,
    access: deps.access,
    charges,
    documents,
    limits: deps.live,
  });
  const sse = graphqlSseHandler({ operations: streams, contexts: deps.contexts, access });
  let wsRequests = 0;
  const ws = graphqlWebSocket(app, {
    operations: streams,
    contexts: deps.contexts,
    trust: proxyTrust(deps.trustProxy),
    requestIds: () => `ws-${++wsRequests}`,
  });
  // Shutdown completes every open stream first: SSE responses end, WebSocket clients get `complete`, then 1001.
  app.addHook('preClose', async () => {
    streams.completeAll();
    await ws.close();
  });
  const tabs = graphiqlTabs();
  warmAfterListening(app, () => {
    for (const tab of tabs) documents.prepare(tab.query);
  });
  const graphiql = renderGraphiqlPage({ endpoint: '/graphql', tabs });
  // GraphiQL's scroll lock (react-remove-scroll) adds a <style> element at run time: styles inline, scripts by hash.
  const graphiqlHeaders = await htmlPageHeaders(graphiql, { styles: 'unsafe-inline' });

  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    if (wantsEventStream(request)) return sse(request, reply);
    const at = request.url.indexOf('?');
    const search = at < 0 ? '' : request.url.slice(at + 1);
    if (wantsPage(request, search)) {
      return reply.headers(graphiqlHeaders).type('text/html; charset=utf-8').send(graphiql);
    }
    // The one point where a /graphql operation is observed (observe-operation.ts).
    const answer = observeOperation(
      deps.operationTallies,
      { surface: 'graphql', name: graphqlOperationName(request, documents.namedOperationIn) },
      () =>
        pipeline({
          method: request.method,
          headers: request.headers,
          search,
          body: request.body,
          access: access(request),
          context: () => deps.contexts.create(request),
        }),
      errorCodeOfAnswer,
    );
    // An answer that is in already is sent now: no promise for fastify to wait on (nothing returned, the reply sent).
    if (!(answer instanceof Promise)) return void sendAnswer(reply, answer);
    return answer.then((answered) => void sendAnswer(reply, answered));
  };
  await app.register(async (scope) => {
    keepMalformedJson(scope);
    scope.setErrorHandler(sendGraphqlRequestError);
    scope.route({ method: ['GET', 'POST'], url: '/graphql', handler });
  });
}
