import 'reflect-metadata';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { type GraphQLSchema, isObjectType, parse } from 'graphql';
import {
  type BuildSchemaOptions,
  buildSchema,
  createResolversMap,
  getMetadataStorage,
  type PubSub,
} from 'type-graphql';

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
  /**
   * The subgraph's types with their resolvers, as type-graphql builds them; an entity's reference resolver is in its
   * type's `extensions.apollo.subgraph.resolveReference`, where @apollo/subgraph puts it. What the in-process gateway
   * executes; without federation's `_entities`/`_service` (buildFederatedSubgraph adds them, for a router).
   */
  schema: GraphQLSchema;
  /** The subgraph SDL with federation directives, as written to schema/<name>.graphql (printed on first read). */
  readonly sdl: string;
  /** The module's resolver classes: which type-graphql resolvers are this subgraph's (the gateway calls them). */
  resolverClasses: readonly unknown[];
}

/**
 * type-graphql asks for a PubSub once any subscription exists; ours have none to give: each subscription field has
 * its own `subscribe` (subgraphs/shared/live-field.ts) over the server's live event bus.
 */
const NO_TOPICS: PubSub = {
  publish() {
    throw new Error('subscription fields declare their own subscribe; there are no topics to publish to');
  },
  subscribe() {
    throw new Error('subscription fields declare their own subscribe; there are no topics to subscribe to');
  },
};

const FEDERATION_LINK = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides"])`;

/**
 * type-graphql builds the types and their resolvers; the module's reference resolvers go where federation looks for
 * them. @apollo/subgraph's own build (SDL round trip and federation validation, ~0.5 s for all nine) is left to
 * buildFederatedSubgraph, which only a subgraph served alone needs.
 * @example const ens = await buildSubgraph(ensSubgraph)
 */
export async function buildSubgraph(mod: SubgraphModule): Promise<BuiltSubgraph> {
  inModuleOrder(mod);
  const schema = await buildSchema({
    resolvers: mod.resolvers,
    orphanedTypes: mod.orphanedTypes,
    skipCheck: true,
    // No validation, global middleware or auth checker: the in-process gateway calls resolver methods directly
    // (src/gateway/direct-resolver-calls.ts), type-graphql's handler having nothing else to do.
    validate: false,
    pubSub: NO_TOPICS,
  });
  for (const [typeName, extra] of Object.entries(mod.referenceResolvers ?? {})) {
    const type = schema.getType(typeName);
    const resolveReference = extra.__resolveReference;
    if (!isObjectType(type) || typeof resolveReference !== 'function') {
      throw new Error(`subgraph ${mod.name}: ${typeName} has no object type or no __resolveReference`);
    }
    const apollo = (type.extensions as { apollo?: { subgraph?: Record<string, unknown> } }).apollo;
    type.extensions = {
      ...type.extensions,
      apollo: { ...apollo, subgraph: { ...apollo?.subgraph, resolveReference } },
    };
  }
  let sdl: string | undefined;
  return {
    name: mod.name,
    schema,
    get sdl() {
      sdl ??= `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(schema)}\n`;
      return sdl;
    },
    resolverClasses: mod.resolvers ?? [],
  };
}

/**
 * type-graphql lays out root fields (and the types they reach) in the order their classes were decorated, that is the
 * order their modules were first imported; a process that imports one resolver module before another (a test worker
 * that ran another file first) would print another SDL. Put the module's resolver classes' entries in the order the
 * module lists them (a stable sort: each class keeps its own order; other modules' entries are left as they are).
 */
function inModuleOrder(mod: SubgraphModule): void {
  const classes = (mod.resolvers ?? []) as readonly unknown[];
  const rank = (target: unknown) => {
    const at = classes.indexOf(target);
    return at === -1 ? classes.length : at;
  };
  const storage = getMetadataStorage();
  for (const list of [storage.queries, storage.mutations, storage.subscriptions, storage.fieldResolvers]) {
    (list as { target: unknown }[]).sort((a, b) => rank(a.target) - rank(b.target));
  }
}

/**
 * The subgraph as a router sees it: @apollo/subgraph's schema with `_service` and `_entities`, built from the SDL and
 * the resolvers type-graphql made. `npm run subgraph` serves this one.
 * @example const { schema } = await buildFederatedSubgraph(ensSubgraph)
 */
export async function buildFederatedSubgraph(mod: SubgraphModule): Promise<BuiltSubgraph> {
  const built = await buildSubgraph(mod);
  const resolvers = createResolversMap(built.schema) as Record<string, Record<string, unknown>>;
  for (const [typeName, extra] of Object.entries(mod.referenceResolvers ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...extra };
  }
  const { sdl } = built;
  // Loaded here, not with this module: only a subgraph served alone needs it, and evaluating @apollo/subgraph and the
  // federation internals it pulls in took ~30 ms of every server start.
  const { buildSubgraphSchema } = await import('@apollo/subgraph');
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: resolvers as never });
  keepFieldExtensions(built.schema, schema);
  return { name: mod.name, schema, sdl, resolverClasses: built.resolverClasses };
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
