import { createHash } from 'node:crypto';
import { ApolloGateway } from '@apollo/gateway';
import type { GatewayExecutor, GatewayGraphQLRequestContext, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import { CachedLocalDataSource } from './cached-local-data-source.js';

/** An operation parsed and validated once, ready to run many times. */
export interface PreparedOperation {
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | null;
  queryHash: string;
}

export interface InProcessGateway {
  /** The API schema clients see (federation internals removed). */
  apiSchema: GraphQLSchema;
  supergraphSdl: string;
  execute(op: PreparedOperation, variables: Record<string, unknown>, context: GraphContext): Promise<ExecutionResult>;
  /** The same executor, shaped as the GatewayInterface Apollo Server expects. */
  asApolloGateway(): GatewayInterface;
  stop(): Promise<void>;
}

const quietLogger = { debug() {}, info() {}, warn() {}, error() {} };
const noCachePolicy = { replace() {}, restrict() {}, policyIfCacheable: () => null };
const noopCache = { get: async () => undefined, set: async () => {}, delete: async () => true };

/** Wraps a parsed document as a PreparedOperation; the caller has validated it against the API schema. */
export function prepareOperation(
  source: string,
  document: DocumentNode,
  operationName?: string | null,
): PreparedOperation {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION)
    throw new Error('document holds no runnable operation');
  return {
    source,
    document,
    operation,
    operationName: operationName ?? null,
    queryHash: createHash('sha256').update(source).digest('hex'),
  };
}

/**
 * Loads @apollo/gateway over the composed supergraph, with every subgraph executed in process.
 * @example const gw = await startInProcessGateway({ subgraphs, supergraphSdl })
 */
export async function startInProcessGateway(params: {
  subgraphs: readonly BuiltSubgraph[];
  supergraphSdl: string;
}): Promise<InProcessGateway> {
  const byName = new Map(params.subgraphs.map((s) => [s.name as string, s.schema]));
  const gateway = new ApolloGateway({
    supergraphSdl: params.supergraphSdl,
    logger: quietLogger,
    buildService: ({ name }) => {
      const schema = byName.get(name);
      if (!schema) throw new Error(`no subgraph named ${name}`);
      return new CachedLocalDataSource(schema);
    },
  });
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema: s }) => {
    apiSchema = s;
  });
  const { executor } = await gateway.load();
  if (!executor || !apiSchema) throw new Error('gateway did not load');
  const schema: GraphQLSchema = apiSchema;
  const exec: GatewayExecutor = executor;

  return {
    apiSchema: schema,
    supergraphSdl: params.supergraphSdl,
    async execute(op, variables, context) {
      const requestContext = {
        request: { query: op.source, operationName: op.operationName ?? undefined, variables },
        logger: quietLogger,
        schema,
        schemaHash: 'in-process',
        context,
        cache: noopCache,
        queryHash: op.queryHash,
        document: op.document,
        source: op.source,
        operationName: op.operationName,
        operation: op.operation,
        metrics: {},
        overallCachePolicy: noCachePolicy,
      } as unknown as GatewayGraphQLRequestContext;
      return exec(requestContext);
    },
    asApolloGateway(): GatewayInterface {
      return {
        load: async () => ({ executor: exec }),
        onSchemaLoadOrUpdate(callback) {
          callback({ apiSchema: schema, coreSupergraphSdl: params.supergraphSdl });
          return () => {};
        },
        stop: async () => {},
      };
    },
    stop: () => gateway.stop(),
  };
}
