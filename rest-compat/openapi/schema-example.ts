import type { JsonSchema } from './openapi-types.js';

/** Lists nested deeper than this are sampled empty (a recursive type ends there, and stays valid). */
const MAX_DEPTH = 10;

function sampleOfType(type: string, schema: JsonSchema): unknown {
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return '2025-01-01T00:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.org';
      return 'string';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

function sample(schema: JsonSchema, defs: Record<string, JsonSchema>, depth: number): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.$ref === 'string') {
    const target = defs[schema.$ref.replace(/^#\/\$defs\//, '')];
    return target ? sample(target, defs, depth + 1) : undefined;
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return sample(options[0] as JsonSchema, defs, depth);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  if (type === 'object' || (type === undefined && schema.properties !== undefined)) {
    const out: Record<string, unknown> = {};
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const value = sample(property, defs, depth + 1);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  if (type === 'array') {
    if (depth >= MAX_DEPTH || schema.items === undefined) return [];
    const item = sample(schema.items as JsonSchema, defs, depth + 1);
    return item === undefined ? [] : [item];
  }
  // A schema that names no type accepts any value: null is one.
  return type === undefined ? null : sampleOfType(type, schema);
}

/**
 * A sample value of a self-contained schema (`$defs` at its root): the document's own examples where it has them,
 * else a placeholder of each field's type, so a caller sees every field a body carries.
 * @example schemaExample({ type: 'object', properties: { name: { type: 'string', example: 'alice.eth' } } }) // { name: 'alice.eth' }
 */
export function schemaExample(schema: JsonSchema): unknown {
  return sample(schema, (schema.$defs ?? {}) as Record<string, JsonSchema>, 0);
}
