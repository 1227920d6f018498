import { getMetadataStorage } from 'type-graphql';
import { RouteTableError } from './route-table-error.js';

declare const rootFieldName: unique symbol;

/** The name of a supergraph root field, as only {@link rootField} makes it: a row cannot name a field by a bare string. */
export type RootFieldName = string & { readonly [rootFieldName]: true };

/** A subgraph resolver's method, as `EnsResolver.prototype.ensResolve` names it. */
// biome-ignore lint/suspicious/noExplicitAny: any resolver method, whatever its parameters
type ResolverMethod = (...args: any[]) => unknown;

/**
 * The GraphQL name of the Query or Mutation field a resolver method serves, read from type-graphql's metadata: a row
 * names its field by the method itself, which tsc checks and go-to-definition follows. A route file that imports
 * resolvers imports `reflect-metadata` first: their decorators need it as they load.
 * @example rootField(EnsResolver.prototype.ensResolve) // 'ensResolve'
 */
export function rootField(method: ResolverMethod): RootFieldName {
  const { queries, mutations } = getMetadataStorage();
  const served = [...queries, ...mutations].find(
    (m) => (m.target as { prototype?: Record<string, unknown> }).prototype?.[m.methodName] === method,
  );
  if (!served) throw new RouteTableError(`${method.name} is no Query or Mutation of a subgraph resolver`);
  return served.schemaName as RootFieldName;
}
