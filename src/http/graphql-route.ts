import { ApolloServer, type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import type { RouteTable, Tier } from '../../rest-compat/route-row.js';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import type { AccessGate } from '../access/access-gate.js';
import type { AccessRequest } from '../access/identify-caller.js';
import { heavierTier } from '../access/tiers.js';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import { maxAliasesRule, maxDepthRule } from '../gateway/operation-limits.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import { renderGraphiqlPage } from './graphiql-page.js';

type GraphqlContext = GraphContext & { access: AccessRequest };

/** Root fields without a REST row are "most operations": medium (SPEC "Endpoint tiers"). */
const DEFAULT_FIELD_TIER: Tier = 'medium';

/** Each root field's tier, from the route table rows that expose it. */
export function fieldTiers(table: RouteTable): Map<string, Tier> {
  const tiers = new Map<string, Tier>();
  for (const row of table.rows) {
    if (row.kind !== 'operation') continue;
    const known = tiers.get(row.field);
    tiers.set(row.field, known ? heavierTier(known, row.tier) : row.tier);
  }
  return tiers;
}

/** An operation is charged at the tier of its heaviest root field; introspection and __typename are free. */
export function operationTier(operation: OperationDefinitionNode, tiers: Map<string, Tier>): Tier {
  let tier: Tier = 'free';
  for (const sel of operation.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD) {
      tier = heavierTier(tier, DEFAULT_FIELD_TIER);
      continue;
    }
    const name = sel.name.value;
    if (name.startsWith('__')) continue;
    tier = heavierTier(tier, tiers.get(name) ?? DEFAULT_FIELD_TIER);
  }
  return tier;
}

function graphQLErrorFrom(err: ApiError): GraphQLError {
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(err.headers)) headers.set(k.toLowerCase(), v);
  return new GraphQLError(err.message, {
    // Apollo Server reads `extensions.http` (status and a HeaderMap) to set the HTTP response.
    extensions: { code: err.code, ...err.extra, http: { status: err.status, headers } } as Record<string, unknown>,
  });
}

function accessPlugin(access: AccessGate, tiers: Map<string, Tier>): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      let release: (() => void) | undefined;
      return {
        async didResolveOperation({ operation, contextValue, response }) {
          try {
            const tier = operation ? operationTier(operation, tiers) : DEFAULT_FIELD_TIER;
            const decision = await access.admit(contextValue.access, { tier });
            release = decision.release;
            for (const [k, v] of Object.entries(decision.headers)) response.http.headers.set(k.toLowerCase(), v);
          } catch (err) {
            throw err instanceof ApiError ? graphQLErrorFrom(err) : err;
          }
        },
        // The operation has run: an API key's concurrency slot is free again.
        async willSendResponse() {
          release?.();
        },
      };
    },
  };
}

/**
 * POST and GET /graphql through Apollo Server over the in-process gateway, with GraphQL Armor-style
 * depth, alias and token limits and the same access rules as REST. A browser's plain GET gets GraphiQL.
 */
export async function registerGraphqlRoute(
  app: FastifyInstance,
  deps: {
    gateway: InProcessGateway;
    access: AccessGate;
    table: RouteTable;
    contexts: GraphContextFactory;
    limits: AppConfig['graphql'];
  },
): Promise<ApolloServer<GraphqlContext>> {
  const server = new ApolloServer<GraphqlContext>({
    gateway: deps.gateway.asApolloGateway(),
    introspection: true,
    // Shutdown is ours (src/server/start-server.ts): Apollo's own SIGTERM handler would exit before the chain and store close.
    stopOnTerminationSignals: false,
    // Callers authenticate with headers (bearer token, X-API-Key, x402), never cookies: no CSRF surface.
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: deps.limits.maxTokens },
    validationRules: [maxDepthRule(deps.limits.maxDepth), maxAliasesRule(deps.limits.maxAliases)],
    plugins: [ApolloServerPluginLandingPageDisabled(), accessPlugin(deps.access, fieldTiers(deps.table))],
  });
  await server.start();
  const graphiql = renderGraphiqlPage({ endpoint: '/graphql' });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const wantsPage =
      request.method === 'GET' && !new URLSearchParams(search).has('query') && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return reply.type('text/html; charset=utf-8').send(graphiql);
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(request.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const result = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: request.method, headers, search, body: request.body },
      context: async () => ({ ...deps.contexts.create(request), access: { ip: request.ip, headers: request.headers } }),
    });
    reply.code(result.status ?? 200);
    for (const [k, v] of result.headers) reply.header(k, v);
    if (result.body.kind === 'complete') return reply.send(result.body.string);
    const chunks: string[] = [];
    for await (const chunk of result.body.asyncIterator) chunks.push(chunk);
    return reply.send(chunks.join(''));
  };
  app.route({ method: ['GET', 'POST'], url: '/graphql', handler });
  return server;
}
