import { createHash } from 'node:crypto';
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import { mergeSubgraphSchemas } from './merged-schema.js';

/** An operation parsed and validated once, ready to run many times. */
export interface PreparedOperation {
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | null;
  queryHash: string;
}

export interface InProcessGateway {
  /**
   * The API schema clients see (federation internals removed), executable: each field runs its subgraph's resolver.
   */
  apiSchema: GraphQLSchema;
  supergraphSdl: string;
  execute(op: PreparedOperation, variables: Record<string, unknown>, context: GraphContext): Promise<ExecutionResult>;
  stop(): Promise<void>;
}

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
 * The composed supergraph, executed in process: the API schema (derived from the supergraph as a router would, see
 * api-schema.ts) with each field running the resolver of the subgraph that defines it (merged-schema.ts), with no
 * query plan and no subgraph requests in between. The `apiSchema` given becomes that executable schema (made so in
 * place): it is the gateway's from then on.
 * @example const gw = await startInProcessGateway({ subgraphs, ...readPublishedSchema() })
 */
export async function startInProcessGateway(params: {
  subgraphs: readonly BuiltSubgraph[];
  supergraphSdl: string;
  apiSchema: GraphQLSchema;
}): Promise<InProcessGateway> {
  const schema = mergeSubgraphSchemas({ apiSchema: params.apiSchema, subgraphs: params.subgraphs });
  return {
    apiSchema: schema,
    supergraphSdl: params.supergraphSdl,
    async execute(op, variables, context) {
      return execute({
        schema,
        document: op.document,
        operationName: op.operationName,
        variableValues: variables,
        contextValue: context,
      });
    },
    stop: async () => {},
  };
}
