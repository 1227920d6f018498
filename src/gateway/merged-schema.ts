import {
  defaultFieldResolver,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLScalarType,
  type GraphQLSchema,
  getNamedType,
  isIntrospectionType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';
import { directResolverCalls } from './direct-resolver-calls.js';

export class MergedSchemaError extends Error {
  override name = 'MergedSchemaError';
}

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type ResolveReference = (reference: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) => unknown;

/** An entity type several subgraphs define: its key fields and, per subgraph, how it turns a key into its object. */
interface SharedEntity {
  keyFields: string[];
  resolveReference: Map<string, ResolveReference | undefined>;
}

/** `@key(fields: "address")` of a subgraph type: the flat key fields (nested keys are not used here). */
function keyFieldsOf(type: GraphQLObjectType): string[] | undefined {
  const key = type.astNode?.directives?.find((d) => d.name.value === 'key');
  const fields = key?.arguments?.find((a) => a.name.value === 'fields')?.value;
  if (!fields) return undefined;
  if (fields.kind !== Kind.STRING || fields.value.includes('{'))
    throw new MergedSchemaError(`${type.name}: only flat @key fields are supported`);
  return fields.value.split(/\s+/).filter(Boolean);
}

function subgraphResolveReference(type: GraphQLObjectType): ResolveReference | undefined {
  const ext = type.extensions as { apollo?: { subgraph?: { resolveReference?: ResolveReference } } };
  return ext.apollo?.subgraph?.resolveReference;
}

/** The entities two or more subgraphs define (by the same key), with each one's reference resolver. */
function sharedEntities(subgraphs: readonly BuiltSubgraph[]): Map<string, SharedEntity> {
  const shared = new Map<string, SharedEntity>();
  for (const sub of subgraphs) {
    for (const type of Object.values(sub.schema.getTypeMap())) {
      if (!isObjectType(type)) continue;
      const keyFields = keyFieldsOf(type);
      if (!keyFields) continue;
      const entity = shared.get(type.name) ?? { keyFields, resolveReference: new Map() };
      if (entity.keyFields.join(' ') !== keyFields.join(' '))
        throw new MergedSchemaError(`${type.name}: subgraphs disagree on its key`);
      entity.resolveReference.set(sub.name, subgraphResolveReference(type));
      shared.set(type.name, entity);
    }
  }
  for (const [name, entity] of shared) if (entity.resolveReference.size < 2) shared.delete(name);
  return shared;
}

/**
 * The fields type-graphql answers by reading a property of the object, by GraphQL type and field name: the property.
 * A plain `@Field` (no field resolver, middleware or roles) gets type-graphql's basic resolver, which returns
 * `root[property]` through its middleware chain: a context object and two closures per field of every object
 * answered. Reading the property directly gives the same value. A field is listed only when every class that
 * declares a type of that name reads it so (subgraphs declare their own class of a shared type).
 */
function plainPropertyFields(): Map<string, Map<string, string>> {
  const storage = getMetadataStorage();
  const withResolver = new Set(storage.fieldResolvers.map((r) => `${r.getObjectType?.()?.name}.${r.methodName}`));
  const plain = new Map<string, Map<string, string>>();
  const refused = new Set<string>();
  for (const objectType of storage.objectTypes) {
    const fields = plain.get(objectType.name) ?? new Map<string, string>();
    plain.set(objectType.name, fields);
    for (const field of objectType.fields ?? []) {
      const at = `${objectType.name}.${field.schemaName}`;
      const isPlain =
        !field.middlewares?.length &&
        field.roles === undefined &&
        !withResolver.has(`${field.target.name}.${field.name}`) &&
        (fields.get(field.schemaName) ?? field.name) === field.name;
      if (isPlain && !refused.has(at)) fields.set(field.schemaName, field.name);
      else {
        refused.add(at);
        fields.delete(field.schemaName);
      }
    }
  }
  return plain;
}

/** Reads one property of the parent, as type-graphql's basic field resolver does. */
const propertyReader =
  (property: string): Resolver =>
  (parent) =>
    (parent as Record<string, unknown>)[property];

/**
 * The subgraphs that define `typeName.fieldName`, in order, each with its resolver and the field's extensions. The
 * resolver of a plain field reads its property; a type-graphql resolver method is called directly where it can be
 * (direct-resolver-calls.ts); otherwise type-graphql's own.
 */
function fieldOwners(
  subgraphs: readonly BuiltSubgraph[],
  typeName: string,
  fieldName: string,
  plain: Map<string, Map<string, string>>,
  direct: Map<string, Map<string, Resolver>>,
) {
  const property = plain.get(typeName)?.get(fieldName);
  const at = `${typeName}.${fieldName}`;
  return subgraphs.flatMap((sub) => {
    const type = sub.schema.getType(typeName);
    const field = type && isObjectType(type) ? type.getFields()[fieldName] : undefined;
    return field
      ? [
          {
            subgraph: sub.name as string,
            resolve: (field.resolve === undefined
              ? defaultFieldResolver
              : property !== undefined
                ? propertyReader(property)
                : (direct.get(sub.name)?.get(at) ?? field.resolve)) as Resolver,
            subscribe: field.subscribe as Resolver | undefined,
            extensions: field.extensions,
          },
        ]
      : [];
  });
}

/**
 * What the subgraphs' own custom scalar (JSON) does, given to the API schema's scalar of the same name: it parses and
 * serializes, and introspects, as its subgraph defines it.
 */
function adoptSubgraphScalar(scalar: GraphQLScalarType, own: GraphQLScalarType): void {
  scalar.description = own.description;
  scalar.specifiedByURL = own.specifiedByURL;
  scalar.serialize = own.serialize;
  scalar.parseValue = own.parseValue;
  scalar.parseLiteral = own.parseLiteral;
  scalar.extensions = own.extensions;
  scalar.astNode = own.astNode;
  scalar.extensionASTNodes = own.extensionASTNodes;
}

/**
 * One executable schema for the whole API: the supergraph's API schema (what clients see, introspection included),
 * each field resolved by the resolver of the subgraph that defines it. This is what a federation router does, minus
 * the query plan and the subgraph requests: a field of an entity that another subgraph produced gets that subgraph's
 * object first, from its `__resolveReference` on the entity's key (once per object and subgraph), exactly the
 * `_entities` call a router would send. Subgraphs still never import each other.
 * The API schema given is made executable in place (its fields get their resolvers, its custom scalars their
 * subgraph's behaviour) and returned: a copy of it (graphql-tools' mapSchema) took about as long as building it.
 * @example const schema = mergeSubgraphSchemas({ apiSchema: buildSchema(apiSdl), subgraphs })
 */
export function mergeSubgraphSchemas(p: {
  apiSchema: GraphQLSchema;
  subgraphs: readonly BuiltSubgraph[];
}): GraphQLSchema {
  const shared = sharedEntities(p.subgraphs);
  const plain = plainPropertyFields();
  const direct = directResolverCalls(p.subgraphs);

  /** Which subgraph produced an entity object: only that subgraph's resolvers may read it as it is. */
  const origin = new WeakMap<object, string>();
  /** Per object, the other subgraphs' objects for the same entity (the `_entities` answer), made once. */
  const converted = new WeakMap<object, Map<string, unknown>>();

  const tag = (value: unknown, subgraph: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (typeof (value as PromiseLike<unknown>).then === 'function')
      return (value as Promise<unknown>).then((v) => tag(v, subgraph));
    if (Array.isArray(value)) {
      for (const item of value) tag(item, subgraph);
      return value;
    }
    origin.set(value, subgraph);
    return value;
  };

  const asSeenBy = (
    parent: object,
    typeName: string,
    entity: SharedEntity,
    subgraph: string,
    context: unknown,
    info: GraphQLResolveInfo,
  ): unknown => {
    let bySubgraph = converted.get(parent);
    if (!bySubgraph) {
      bySubgraph = new Map();
      converted.set(parent, bySubgraph);
    }
    if (bySubgraph.has(subgraph)) return bySubgraph.get(subgraph);
    const reference: Record<string, unknown> = { __typename: typeName };
    for (const field of entity.keyFields) reference[field] = (parent as Record<string, unknown>)[field];
    const resolveReference = entity.resolveReference.get(subgraph);
    const made = resolveReference ? resolveReference(reference, context, info) : reference;
    bySubgraph.set(subgraph, made);
    return made;
  };

  /** Gives the API field `typeName.field` the resolver (and the event stream) of the subgraph(s) defining it. */
  const resolveField = (field: GraphQLField<unknown, unknown>, typeName: string): void => {
    const owners = fieldOwners(p.subgraphs, typeName, field.name, plain, direct);
    if (owners.length === 0) throw new MergedSchemaError(`no subgraph resolves ${typeName}.${field.name}`);
    // What the subgraphs' classes declare beyond SDL (`@Extensions`: the OpenAPI document's JSON Schema facts).
    field.extensions = Object.assign(Object.create(null), field.extensions, ...owners.map((o) => o.extensions));
    const returnsShared = shared.has(getNamedType(field.type).name);
    const entity = shared.get(typeName);
    const first = owners[0]!;
    // Objects of a shared entity remember which subgraph made them (for a default resolver: its parent's maker).
    const made = (subgraph: string, value: unknown) => (returnsShared ? tag(value, subgraph) : value);
    if (!entity) {
      // A subscription field's event stream comes from its subgraph's `subscribe`; `resolve` maps each event.
      if (first.subscribe) {
        field.subscribe = first.subscribe;
        field.resolve = first.resolve;
      } else if (!returnsShared) field.resolve = first.resolve;
      else
        field.resolve = (parent, args, context, info) =>
          made(first.subgraph, first.resolve(parent, args, context, info));
      return;
    }
    const bySubgraph = new Map(owners.map((o) => [o.subgraph, o.resolve]));
    field.resolve = (parent, args, context, info) => {
      const from = origin.get(parent as object);
      // The subgraph that made the object resolves the fields it defines; another one gets its own object first.
      const own = from === undefined ? undefined : bySubgraph.get(from);
      if (own) return made(from!, own(parent, args, context, info));
      const seen = asSeenBy(parent as object, typeName, entity, first.subgraph, context, info);
      const run = (source: unknown) =>
        source == null ? null : made(first.subgraph, first.resolve(source, args, context, info));
      return seen instanceof Promise ? seen.then(run) : run(seen);
    };
  };

  for (const type of Object.values(p.apiSchema.getTypeMap())) {
    if (isIntrospectionType(type)) continue;
    if (isScalarType(type) && !isSpecifiedScalarType(type)) {
      const own = p.subgraphs.map((sub) => sub.schema.getType(type.name)).find((t) => t && isScalarType(t));
      if (own) adoptSubgraphScalar(type, own as GraphQLScalarType);
    }
    if (isObjectType(type)) for (const field of Object.values(type.getFields())) resolveField(field, type.name);
  }
  return p.apiSchema;
}
