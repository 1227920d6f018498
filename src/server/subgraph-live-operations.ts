import { execute, type GraphQLSchema, subscribe } from 'graphql';
import { asGraphQLError } from '../http/graphql-coded-errors.js';
import type { GraphqlDocuments } from '../http/graphql-documents.js';
import type { LiveOperations } from '../http/live-operations.js';

/**
 * A subgraph served alone runs what a router sends it over the streaming transports (graphql-streams.ts): the
 * document parsed and validated against the subgraph's schema, then subscribed to (or executed), with the caller's
 * GraphContext. Nothing is admitted or counted here: behind a router, access rules are the router's, as for the
 * subgraph's queries (docs/operators.md#federation-under-a-router). Each subscription is a stream of the instance's
 * live hub (`live`), whose bounds apply; `completeAll` ends them at shutdown.
 * @example const operations = subgraphLiveOperations({ schema, documents, live: services.live })
 */
export function subgraphLiveOperations(deps: {
  schema: GraphQLSchema;
  documents: GraphqlDocuments;
  live: { open(): number; completeAll(): void };
}): LiveOperations {
  return {
    async run(request) {
      const prepared = deps.documents.prepare(request.query);
      if ('errors' in prepared) return { result: { errors: prepared.errors } };
      const operation = prepared.operation(request.operationName ?? undefined);
      if (!operation) return { result: { errors: [asGraphQLError(new Error('no operation to run'))] } };
      const args = {
        schema: deps.schema,
        document: prepared.document,
        contextValue: request.context(),
        variableValues: request.variables ?? undefined,
        operationName: request.operationName ?? undefined,
      };
      return { result: operation.operation === 'subscription' ? await subscribe(args) : await execute(args) };
    },
    completeAll: () => deps.live.completeAll(),
    get open() {
      return deps.live.open();
    },
  };
}
