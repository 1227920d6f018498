import type { JsonSchema } from './openapi-types.js';

/** Keywords whose value is a map of names to subschemas (the names are data, never keywords). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one subschema. */
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/**
 * A schema with OpenAPI's `example` written as JSON Schema's `examples` (a list), at every level: `example` is not a
 * JSON Schema keyword, and validators in strict mode (Ajv's, which MCP clients use) refuse a schema that has one.
 * Property names are left alone, so a property called `example` stays one.
 * @example withJsonSchemaExamples({ type: 'string', example: 'alice.eth' }) // { type: 'string', examples: ['alice.eth'] }
 */
export function withJsonSchemaExamples<T extends JsonSchema>(schema: T): T {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example') continue;
    if (SCHEMA_MAPS.includes(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [
          name,
          withJsonSchemaExamples(inner),
        ]),
      );
    } else if (SCHEMA_VALUES.includes(key)) out[key] = withJsonSchemaExamples(value as JsonSchema);
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value))
      out[key] = value.map((inner) => withJsonSchemaExamples(inner as JsonSchema));
    else out[key] = value;
  }
  if ('example' in schema) {
    const listed = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [];
    out.examples = [schema.example, ...listed];
  }
  return out as T;
}
