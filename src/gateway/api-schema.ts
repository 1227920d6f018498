import { ApolloGateway } from '@apollo/gateway';
import type { GraphQLSchema } from 'graphql';

const quietLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The API schema of a supergraph, derived as a router derives it (federation internals removed, @inaccessible
 * elements hidden): what `npm run schema:write` prints into schema/api.graphql. Not on the server's start path.
 * @example printSchema(await apiSchemaOfSupergraph(composeSupergraph(await buildAllSubgraphs())))
 */
export async function apiSchemaOfSupergraph(supergraphSdl: string): Promise<GraphQLSchema> {
  const gateway = new ApolloGateway({
    supergraphSdl,
    logger: quietLogger,
    // Only the schema is taken from the gateway: it never executes a query plan here.
    buildService: ({ name }) => ({
      process: async () => ({ errors: [{ message: `subgraph ${name} is executed in process, not fetched` }] }),
    }),
  });
  let loaded: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
    loaded = apiSchema;
  });
  await gateway.load();
  await gateway.stop();
  if (!loaded) throw new Error('gateway did not load');
  return loaded;
}
