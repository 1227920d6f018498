import type { JsonSchema } from './openapi-types.js';

/** The range a JSON Schema integer must keep to be what OpenAPI's `format: int32` names. */
const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;

/** OpenAPI formats that JSON Schema has no name for: said as bounds (int32) or dropped (a number's width). */
const OPENAPI_ONLY_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Keywords whose value is data (an instance), never a schema. */
const DATA_KEYWORDS = new Set(['examples', 'const', 'default', 'enum']);

/**
 * An OpenAPI 3.1 schema said in plain JSON Schema 2020-12, for consumers that validate with a JSON Schema library
 * (x402 bazaar discovery, Ajv in strict mode): OpenAPI's `format: int32` becomes the bounds it means, the width formats
 * `int64`, `float` and `double` are dropped (annotations that JSON Schema validators warn about), and OpenAPI's singular
 * `example` becomes `examples: [example]`. Everything else is kept as it is.
 * @example plainJsonSchema({ type: 'integer', format: 'int32' }) // { type: 'integer', minimum: -2147483648, maximum: 2147483647 }
 */
export function plainJsonSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item) => plainJsonSchema(item)) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'format' && typeof value === 'string' && OPENAPI_ONLY_FORMATS.has(value)) {
      if (value === 'int32') Object.assign(out, INT32, pick(schema as JsonSchema, 'minimum', 'maximum'));
      continue;
    }
    if (key === 'example') {
      if (!('examples' in (schema as JsonSchema))) out.examples = [value];
      continue;
    }
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      // Its keys are names (a property may be called `example`), each value a schema.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, plainJsonSchema(sub)]));
      continue;
    }
    // Example values are data, not schemas: kept as they are.
    out[key] = DATA_KEYWORDS.has(key) ? value : plainJsonSchema(value);
  }
  return out as T;
}

/** The named members that `schema` sets itself (they win over a format's bounds). */
function pick(schema: JsonSchema, ...names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => name in schema).map((name) => [name, schema[name]]));
}
