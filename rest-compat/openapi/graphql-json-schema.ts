import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
} from 'graphql';
import { buildSchemaObjectFromType, resolveFieldType } from 'sofa-api';
import { componentRef, type JsonSchema } from './openapi-types.js';

/** JSON Schemas of the custom scalars a supergraph may carry; an unknown scalar is any JSON value. */
const KNOWN_SCALARS: Record<string, JsonSchema> = {
  DateTime: { type: 'string', format: 'date-time' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  Timestamp: { type: 'string', format: 'date-time' },
  Date: { type: 'string', format: 'date' },
  Time: { type: 'string', format: 'time' },
  BigInt: { type: 'string', pattern: '^-?[0-9]+$' },
  JSON: {},
  JSONObject: { type: 'object' },
  URL: { type: 'string', format: 'uri' },
  EmailAddress: { type: 'string', format: 'email' },
};

export interface GraphqlJsonSchemasParams {
  /** The supergraph API schema. */
  schema: GraphQLSchema;
}

/** Turns GraphQL output types into JSON Schemas and gathers the object types they reach. */
export interface GraphqlJsonSchemas {
  /** The schema of a 200 body holding a value of `type`: non-null, since a null value is answered with 404. */
  bodySchema(type: GraphQLOutputType): JsonSchema;
  /** A named type's schema: a `$ref` to its component for object types (added to `components`), inline for leaves. */
  namedSchema(named: GraphQLNamedType): JsonSchema;
  /** `components.schemas` for every object, interface and union type reached so far. */
  readonly components: Record<string, JsonSchema>;
}

/**
 * GraphQL → JSON Schema through sofa-api's helpers, made nullability-aware for OpenAPI 3.1.
 * @example graphqlJsonSchemas({ schema }).bodySchema(schema.getQueryType()!.getFields().gasPrices.type)
 */
export function graphqlJsonSchemas({ schema }: GraphqlJsonSchemasParams): GraphqlJsonSchemas {
  const customScalars = scalarSchemas(schema);
  const components: Record<string, JsonSchema> = {};
  const opts = { customScalars };

  const visit = (named: GraphQLNamedType): void => {
    if (components[named.name] !== undefined) return;
    if (isObjectType(named) || isInterfaceType(named)) {
      components[named.name] = {}; // placeholder first: types may refer to themselves
      components[named.name] = objectSchema(named as GraphQLObjectType);
    } else if (isUnionType(named)) {
      components[named.name] = {};
      components[named.name] = {
        oneOf: named.getTypes().map((member) => namedSchema(member)),
        ...(named.description ? { description: named.description } : {}),
      };
    }
  };

  // Object-like types are always referenced; leaves are inlined by sofa-api.
  const namedSchema = (named: GraphQLNamedType): JsonSchema => {
    if (isObjectType(named) || isInterfaceType(named) || isUnionType(named)) {
      visit(named);
      return componentRef('schemas', named.name) as unknown as JsonSchema;
    }
    return resolveFieldType(named, opts) as JsonSchema;
  };

  // A component stands for the whole type selected, and GraphQL answers every selected field, null or not: all are
  // required, as selection-json-schema.ts requires every field of a partial selection (sofa-api requires non-null ones).
  const objectSchema = (type: GraphQLObjectType): JsonSchema => {
    const base = buildSchemaObjectFromType(type, opts) as JsonSchema;
    const fields = Object.values(type.getFields());
    const properties: Record<string, JsonSchema> = {};
    for (const field of fields) properties[field.name] = fieldSchema(field, namedSchema(getNamedType(field.type)));
    return { ...base, required: fields.map((field) => field.name), properties };
  };

  return {
    bodySchema: (type) => wrappedSchema(type, namedSchema(getNamedType(type)), { nonNull: true }),
    namedSchema,
    components,
  };
}

/** Keywords of a field's `jsonSchema` extension that describe its whole value; the others describe its leaf. */
const VALUE_KEYWORDS = new Set(['example', 'examples']);

/**
 * The schema of an object field's value, `named` being its named type's schema: wrapped as the field's type says, with
 * its description, and with the JSON Schema facts its class declares beyond GraphQL's type system
 * (`@Extensions({ jsonSchema: … })`, never printed in SDL). Examples describe the whole value; other keywords (format,
 * enum, pattern) its leaf, so a nullable enum admits null and a list's items carry the format.
 * @example fieldSchema(SiweChallenge.getFields().expiresAt, { type: 'string' }) // { type: 'string', format: 'date-time', description: 'expiry, …' }
 */
export function fieldSchema(field: GraphQLField<unknown, unknown>, named: JsonSchema): JsonSchema {
  const declared = (field.extensions?.jsonSchema ?? {}) as JsonSchema;
  const leaf = Object.fromEntries(Object.entries(declared).filter(([key]) => !VALUE_KEYWORDS.has(key)));
  const whole = Object.fromEntries(Object.entries(declared).filter(([key]) => VALUE_KEYWORDS.has(key)));
  return {
    ...wrappedSchema(field.type, { ...named, ...leaf }),
    ...(field.description ? { description: field.description } : {}),
    ...(field.deprecationReason ? { deprecated: true } : {}),
    ...whole,
  };
}

/**
 * The schema of a value of `type` whose named type has the schema `named`: lists become arrays, and a nullable
 * level admits null (`nonNull` drops that at the outermost level, as for a 200 body).
 * @example wrappedSchema(new GraphQLList(GraphQLString), { type: 'string' }) // { type: ['array', 'null'], items: { type: ['string', 'null'] } }
 */
export function wrappedSchema(
  type: GraphQLOutputType,
  named: JsonSchema,
  opts: { nonNull?: boolean } = {},
): JsonSchema {
  const nullable = !opts.nonNull && !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  const schema = isListType(inner) ? { type: 'array', items: wrappedSchema(inner.ofType, named) } : named;
  return nullable ? orNull(schema) : schema;
}

/** `schema` or JSON null, in the 3.1 dialect (no `nullable`). */
function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema; // already any value
  if (typeof schema.type === 'string' && schema.$ref === undefined) {
    const nullable: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) nullable.enum = [...schema.enum, null];
    return nullable;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** sofa-api's `customScalars` for every non-standard scalar of the schema. */
function scalarSchemas(schema: GraphQLSchema): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isScalarType(type) || isSpecifiedScalarType(type) || type.name.startsWith('__')) continue;
    const known = KNOWN_SCALARS[type.name] ?? (type.extensions?.jsonSchema as JsonSchema | undefined) ?? {};
    result[type.name] = { ...known, ...(type.description ? { description: type.description } : {}) };
  }
  return result;
}
