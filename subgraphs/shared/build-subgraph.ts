import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { type GraphQLSchema, isObjectType, parse } from 'graphql';
import { type BuildSchemaOptions, buildSchema, createResolversMap } from 'type-graphql';

export type SubgraphName =
  | 'ens'
  | 'farcaster'
  | 'prices'
  | 'wallet'
  | 'defi'
  | 'chain'
  | 'account'
  | 'ccip'
  | 'webhooks';

/** What one domain exports: its resolver classes and, for entities, their reference resolvers. */
export interface SubgraphModule {
  name: SubgraphName;
  resolvers: BuildSchemaOptions['resolvers'];
  orphanedTypes?: BuildSchemaOptions['orphanedTypes'];
  /** `{ TypeName: { __resolveReference(ref, ctx) } }` for the entities this subgraph owns. */
  referenceResolvers?: Record<string, Record<string, unknown>>;
}

export interface BuiltSubgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
  /** The subgraph SDL with federation directives, as written to schema/<name>.graphql. */
  sdl: string;
}

const FEDERATION_LINK = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides"])`;

/** type-graphql builds the types; @apollo/subgraph adds the federation fields (_service, _entities). */
export async function buildSubgraph(mod: SubgraphModule): Promise<BuiltSubgraph> {
  const typeSchema = await buildSchema({
    resolvers: mod.resolvers,
    orphanedTypes: mod.orphanedTypes,
    skipCheck: true,
    validate: false,
  });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(typeSchema)}\n`;
  const resolvers = createResolversMap(typeSchema) as Record<string, Record<string, unknown>>;
  for (const [typeName, extra] of Object.entries(mod.referenceResolvers ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...extra };
  }
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: resolvers as never });
  keepFieldExtensions(typeSchema, schema);
  return { name: mod.name, schema, sdl };
}

/**
 * The SDL round trip drops what `@Extensions` declared on a field (the JSON Schema facts the OpenAPI document reads,
 * e.g. `format: date-time` on a String); put it back on the same field of the built schema, as @apollo/subgraph
 * puts the resolvers. The SDL itself is unchanged: extensions are never printed.
 */
function keepFieldExtensions(from: GraphQLSchema, to: GraphQLSchema): void {
  for (const type of Object.values(from.getTypeMap())) {
    const target = to.getType(type.name);
    if (!isObjectType(type) || !isObjectType(target)) continue;
    const targetFields = target.getFields();
    for (const field of Object.values(type.getFields())) {
      const into = targetFields[field.name];
      if (into !== undefined && Object.keys(field.extensions).length > 0)
        into.extensions = { ...into.extensions, ...field.extensions };
    }
  }
}
