import { type GraphQLFieldResolver, type GraphQLResolveInfo, GraphQLScalarType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Storage = ReturnType<typeof getMetadataStorage>;
type ResolverMetadata = Storage['queries'][number] | Storage['fieldResolvers'][number];
type ParamMetadata = NonNullable<ResolverMetadata['params']>[number];
/** One parameter of a resolver method, computed from what graphql-js gives the field's resolver. */
type ParamReader = (
  root: unknown,
  args: Record<string, unknown>,
  context: unknown,
  info: GraphQLResolveInfo,
) => unknown;

/**
 * Argument types type-graphql hands over unchanged (its convertToType returns a scalar, a primitive or an enum value
 * as it is): only the lists around them are copied, as its convertValuesToInstances maps every list.
 */
const isScalarTarget = (target: unknown, enums: ReadonlySet<unknown>): boolean =>
  target instanceof GraphQLScalarType ||
  target === String ||
  target === Number ||
  target === Boolean ||
  target === Date ||
  enums.has(target);

/** A list argument copied as type-graphql copies it (each nested list anew); any other value as it is. */
const copyLists = (value: unknown): unknown => (Array.isArray(value) ? value.map(copyLists) : value);

/**
 * A class whose instance reads like the plain object it was made from: no members on its prototypes (no getter, no
 * method) and no field with a value of its own. type-graphql turns a `@Root()` of such a type into a new instance
 * holding the root's own properties; a resolver that only reads the root's properties sees the same values in the
 * root itself. (The field resolvers taking a root read its properties: none of them writes, spreads or returns it.)
 */
function readsLikeItsData(target: new () => object): boolean {
  for (let type: unknown = target; type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    const proto = (type as { prototype?: object }).prototype;
    if (proto === undefined) return false;
    if (Object.getOwnPropertyNames(proto).some((name) => name !== 'constructor')) return false;
    if (Object.getOwnPropertySymbols(proto).length > 0) return false;
  }
  const instance = new target();
  return Object.getOwnPropertyNames(instance).every(
    (name) => (instance as Record<string, unknown>)[name] === undefined,
  );
}

/** How type-graphql computes one parameter, without its per-call conversion; undefined when that is not plain. */
function paramReader(param: ParamMetadata, enums: ReadonlySet<unknown>): ParamReader | undefined {
  switch (param.kind) {
    case 'info':
      return (_root, _args, _context, info) => info;
    case 'context': {
      const property = param.propertyName;
      return property === undefined
        ? (_root, _args, context) => context
        : (_root, _args, context) => (context as Record<string, unknown>)[property];
    }
    case 'root': {
      const type = param.getType?.();
      if (type !== undefined && !(typeof type === 'function' && readsLikeItsData(type as new () => object)))
        return undefined;
      const property = param.propertyName;
      return property === undefined ? (root) => root : (root) => (root as Record<string, unknown>)[property];
    }
    case 'arg': {
      if (param.validateFn !== undefined || (param.validateSettings !== undefined && param.validateSettings !== false))
        return undefined;
      // An input class: type-graphql makes instances of it (and of the classes inside), so its own resolver stays.
      if (!isScalarTarget(param.getType(), enums)) return undefined;
      const name = param.name;
      return (_root, args) => copyLists(args[name]);
    }
    default:
      // `@Args()` classes, custom parameter decorators, pubSub: type-graphql's own resolver.
      return undefined;
  }
}

/**
 * The resolver method called with its parameters as type-graphql computes them, minus type-graphql's per-call work:
 * its handler builds a resolver-data object, finds the class instance in its container, sorts the parameters, and
 * passes every argument through an async validation (a promise per argument and a Promise.all) even with validation
 * off. A method taking arguments is still called as late as that handler calls it (afterArgumentValidation).
 * Undefined for a resolver that has more than that to do (middleware, roles, validation, a converted parameter).
 */
function directCall(
  metadata: ResolverMetadata,
  instances: Map<unknown, object>,
  enums: ReadonlySet<unknown>,
): Resolver | undefined {
  if (metadata.middlewares?.length || metadata.roles !== undefined) return undefined;
  if (metadata.resolverClassMetadata?.superResolver !== undefined) return undefined;
  if ('kind' in metadata && metadata.kind !== 'external') return undefined;
  const readers: ParamReader[] = [];
  for (const param of [...(metadata.params ?? [])].sort((a, b) => a.index - b.index)) {
    const reader = paramReader(param, enums);
    if (!reader) return undefined;
    readers.push(reader);
  }
  let instance = instances.get(metadata.target);
  if (instance === undefined) {
    // type-graphql's default container makes one instance per class; a class holding no state of its own behaves
    // the same through any instance of it.
    instance = new (metadata.target as new () => object)();
    if (Object.getOwnPropertyNames(instance).length > 0 || Object.getOwnPropertySymbols(instance).length > 0)
      return undefined;
    instances.set(metadata.target, instance);
  }
  const self = instance as Record<string, (...params: unknown[]) => unknown>;
  const name = metadata.methodName;
  if (typeof self[name] !== 'function') return undefined;
  // The method is looked up on each call, as type-graphql's handler does.
  if (metadata.params?.some((param) => param.kind === 'arg')) return afterArgumentValidation(self, name, readers);
  const [a, b, c] = readers;
  switch (readers.length) {
    case 0:
      return () => self[name]!();
    case 1:
      return (root, args, context, info) => self[name]!(a!(root, args as never, context, info));
    case 2:
      return (root, args, context, info) =>
        self[name]!(a!(root, args as never, context, info), b!(root, args as never, context, info));
    case 3:
      return (root, args, context, info) =>
        self[name]!(
          a!(root, args as never, context, info),
          b!(root, args as never, context, info),
          c!(root, args as never, context, info),
        );
    default:
      return (root, args, context, info) =>
        self[name]!(...readers.map((read) => read(root, args as never, context, info)));
  }
}

const settled = Promise.resolve();
const noop = (): void => undefined;

/**
 * A method taking arguments, called when type-graphql's handler calls it: its parameters read at once, the method two
 * promise turns later (type-graphql awaits every argument's validation, a Promise.all of settled promises, then calls
 * it in a `then`), and its outcome settling the promise answered as that `then`'s does. Fields answer and fail in the
 * same order as before (graphql-js lists errors as they come), and the loaders batch the same keys.
 */
function afterArgumentValidation(
  self: Record<string, (...params: unknown[]) => unknown>,
  name: string,
  readers: readonly ParamReader[],
): Resolver {
  return (root, args, context, info) => {
    const values = readers.map((read) => read(root, args as never, context, info));
    return settled.then(noop).then(() => self[name]!(...values));
  };
}

/**
 * Per subgraph, by `Type.field`: the direct call of the type-graphql resolver method behind the field (a query or a
 * field resolver of one of the subgraph's resolver classes), where type-graphql's handler only computes parameters.
 * Valid for subgraphs built as build-subgraph.ts builds them: no validation, no global middleware, no auth checker,
 * the default container. Subscriptions and mutations keep type-graphql's own resolver.
 */
export function directResolverCalls(subgraphs: readonly BuiltSubgraph[]): Map<string, Map<string, Resolver>> {
  const storage = getMetadataStorage();
  const typeName = new Map<unknown, string>(storage.objectTypes.map((t) => [t.target, t.name]));
  const enums = new Set<unknown>(storage.enums.map((e) => e.enumObj));
  const instances = new Map<unknown, object>();
  const bySubgraph = new Map<string, Map<string, Resolver>>();
  for (const sub of subgraphs) {
    const classes = new Set(sub.resolverClasses);
    const calls = new Map<string, Resolver>();
    const entries: [string, ResolverMetadata][] = [];
    for (const query of storage.queries)
      if (classes.has(query.target)) entries.push([`Query.${query.schemaName}`, query]);
    for (const field of storage.fieldResolvers) {
      const objectType = field.kind === 'external' ? field.getObjectType?.() : undefined;
      const name = objectType && typeName.get(objectType);
      if (name !== undefined && classes.has(field.target)) entries.push([`${name}.${field.schemaName}`, field]);
    }
    const seen = new Set<string>();
    for (const [at, metadata] of entries) {
      // type-graphql takes the first resolver it finds for a field; a second one for the same field is never called.
      if (seen.has(at)) continue;
      seen.add(at);
      const call = directCall(metadata, instances, enums);
      if (call) calls.set(at, call);
    }
    bySubgraph.set(sub.name, calls);
  }
  return bySubgraph;
}
