import type { JsonSchema } from './openapi/openapi-types.js';

/**
 * How a row reshapes its root field's value for REST callers, declared once for both sides: `value` turns the
 * GraphQL value into the body, `schema` turns the schema derived from the operation's selection into the body's.
 * Rows compose the named shapes below rather than writing either side by hand.
 */
export interface ResponseShape {
  value(value: unknown): unknown;
  schema(schema: JsonSchema): JsonSchema;
}

type Json = Record<string, unknown>;

/**
 * Only the given fields, in this order (the older endpoints answer fewer fields than the GraphQL type holds).
 * @example pick('nonce', 'expiresAt').value({ nonce: 'n', expiresAt: 't', message: 'm' }) // { nonce: 'n', expiresAt: 't' }
 */
export function pick(...keys: string[]): ResponseShape {
  return keepingExamples({
    value: (value) => Object.fromEntries(keys.map((key) => [key, (value as Json)[key]])),
    schema: (schema) => {
      const properties = propertiesOf(schema);
      for (const key of keys) if (properties[key] === undefined) throw new Error(`pick: the selection has no ${key}`);
      return {
        ...schema,
        required: requiredOf(schema).filter((key) => keys.includes(key)),
        properties: Object.fromEntries(keys.map((key) => [key, properties[key]])),
      };
    },
  });
}

/**
 * A list of `{ key, value }` objects at `path` answered as one map from key to value (`records.twitter`); an absent
 * or null list is an empty map.
 * @example entriesAsMap(['records'], 'key', 'value').value({ records: [{ key: 'url', value: 'https://a.b' }] }) // { records: { url: 'https://a.b' } }
 */
export function entriesAsMap(path: readonly string[], keyField: string, valueField: string): ResponseShape {
  return atPath(
    path,
    keepingExamples({
      value: (list) =>
        Object.fromEntries(((list ?? []) as Json[]).map((entry) => [entry[keyField], entry[valueField]])),
      schema: (schema) => {
        const entry = arrayItems(schema);
        const valueSchema = propertiesOf(entry)[valueField];
        if (propertiesOf(entry)[keyField] === undefined || valueSchema === undefined)
          throw new Error(`entriesAsMap: ${path.join('.')} does not select ${keyField} and ${valueField}`);
        return {
          type: 'object',
          additionalProperties: valueSchema,
          ...(schema.description !== undefined ? { description: schema.description } : {}),
        };
      },
    }),
  );
}

/**
 * A field left out of the body when its value is null (a generated secret is shown once; one the caller chose is
 * not echoed), and placed last when present.
 * @example omitWhenNull('secret').value({ id: 'a', secret: null }) // { id: 'a' }
 */
export function omitWhenNull(key: string): ResponseShape {
  return keepingExamples({
    value: (value) => {
      const { [key]: field, ...rest } = value as Json;
      return field === null ? rest : { ...rest, [key]: field };
    },
    schema: (schema) => {
      const properties = propertiesOf(schema);
      if (properties[key] === undefined) throw new Error(`omitWhenNull: the selection has no ${key}`);
      return {
        ...schema,
        required: requiredOf(schema).filter((name) => name !== key),
        properties: { ...properties, [key]: withoutNull(properties[key]) },
      };
    },
  });
}

/**
 * Shapes applied one after the other.
 * @example shapes(entriesAsMap(['records', 'texts'], 'key', 'value'), entriesAsMap(['records', 'addresses'], 'coinType', 'address'))
 */
export function shapes(...steps: ResponseShape[]): ResponseShape {
  return {
    value: (value) => steps.reduce((v, step) => step.value(v), value),
    schema: (schema) => steps.reduce((s, step) => step.schema(s), schema),
  };
}

/**
 * `shape` applied to the field at `path` of an object (and of its schema), the rest left as it is; a field the
 * operation left out (`@include(if: false)`) stays out.
 */
function atPath(path: readonly string[], shape: ResponseShape): ResponseShape {
  const [head, ...rest] = path;
  if (head === undefined) return shape;
  const inner = atPath(rest, shape);
  return keepingExamples({
    value: (value) =>
      Object.hasOwn(value as Json, head) ? { ...(value as Json), [head]: inner.value((value as Json)[head]) } : value,
    schema: (schema) => {
      const properties = propertiesOf(schema);
      if (properties[head] === undefined) throw new Error(`shape: the selection has no ${head}`);
      return { ...schema, properties: { ...properties, [head]: inner.schema(properties[head]) } };
    },
  });
}

/**
 * `shape` whose schema also turns the examples declared where it applies (`example`, `examples`: from the GraphQL
 * field's `@Extensions`) with its value function, so they stay examples of what the body holds there.
 */
function keepingExamples(shape: ResponseShape): ResponseShape {
  return {
    value: shape.value,
    schema: (schema) => ({
      ...shape.schema(schema),
      ...(schema.example !== undefined ? { example: shape.value(schema.example) } : {}),
      ...(Array.isArray(schema.examples) ? { examples: schema.examples.map((e) => shape.value(e)) } : {}),
    }),
  };
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) throw new Error('shape: expected an inline object schema');
  return properties;
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

function arrayItems(schema: JsonSchema): JsonSchema {
  const list = withoutNull(schema);
  if (list.type !== 'array') throw new Error('shape: expected a list');
  return list.items as JsonSchema;
}

/** The non-null part of a schema `wrappedSchema` made nullable (`type: [t, 'null']` or `anyOf: [s, null]`). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    const nonNull: JsonSchema = { ...schema, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(schema.enum)) nonNull.enum = schema.enum.filter((v) => v !== null);
    return nonNull;
  }
  if (Array.isArray(schema.anyOf)) {
    const { anyOf, ...rest } = schema;
    const [inner, ...others] = (anyOf as JsonSchema[]).filter((s) => s.type !== 'null');
    if (inner !== undefined && others.length === 0) return { ...inner, ...rest };
  }
  return schema;
}
