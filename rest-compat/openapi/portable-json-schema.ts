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
/** Keywords that describe a value rather than constrain it: they stay beside a nullable value's `anyOf`. */
const ANNOTATIONS = ['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment'];

/** The range a JSON Schema integer must keep to be what OpenAPI's `format: int32` names. */
const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;
/** OpenAPI's number widths: JSON Schema names none of them, and validators warn about an unknown format. */
const OPENAPI_WIDTHS = new Set(['int32', 'int64', 'float', 'double']);
/** RFC 3339 `date-time` (JSON Schema's format), said as a pattern for a validator that knows no formats. */
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

/** How a schema's consumer treats `format`. */
export interface PortableJsonSchemaOptions {
  /**
   * `'keep'` (default): JSON Schema's own formats stay (MCP clients validate with ajv-formats); `'as-patterns'`: the
   * consumer knows no formats (x402's discovery validator, plain Ajv), so `date-time` becomes its pattern and any
   * other format is dropped.
   */
  formats?: 'keep' | 'as-patterns';
}

/**
 * An OpenAPI 3.1 schema said in the JSON Schema every client reads the same way, at every level:
 * - OpenAPI's `example` becomes JSON Schema's `examples` (strict validators refuse an unknown keyword);
 * - OpenAPI's `int32` becomes the bounds it names, and the widths `int64`, `float`, `double` are dropped (validators
 *   warn about a format JSON Schema does not define);
 * - a nullable value's `type: [T, 'null']` becomes `anyOf: [{ type: T, … }, { type: 'null' }]` (strict MCP hosts
 *   warn about type lists);
 * - with `formats: 'as-patterns'`, `date-time` becomes its pattern and other formats are dropped.
 * Property names are left alone, so a property called `example` or `format` stays one; instance data (`enum`,
 * `const`, `default`, `examples`) is kept as it is.
 * @example portableJsonSchema({ type: ['integer', 'null'], format: 'int32', example: 3 })
 * // { anyOf: [{ type: 'integer', minimum: -2147483648, maximum: 2147483647 }, { type: 'null' }], examples: [3] }
 */
export function portableJsonSchema<T extends JsonSchema>(schema: T, opts: PortableJsonSchemaOptions = {}): T {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const walk = (inner: JsonSchema) => portableJsonSchema(inner, opts);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example') continue;
    if (key === 'format' && typeof value === 'string') Object.assign(out, formatSaid(value, schema, opts));
    else if (SCHEMA_MAPS.includes(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [name, walk(inner)]),
      );
    } else if (SCHEMA_VALUES.includes(key)) out[key] = walk(value as JsonSchema);
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map((inner) => walk(inner));
    else out[key] = value;
  }
  if ('example' in schema) {
    const listed = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [];
    out.examples = [schema.example, ...listed];
  }
  return withoutTypeList(out) as T;
}

/** What a `format` is said as for the consumer: itself, the bounds or pattern it names, or nothing. */
function formatSaid(format: string, schema: JsonSchema, opts: PortableJsonSchemaOptions): JsonSchema {
  if (format === 'int32') {
    // A bound the schema sets itself is kept (it is the narrower one).
    return Object.fromEntries(
      Object.entries(INT32).map(([bound, value]) => [bound, bound in schema ? schema[bound] : value]),
    );
  }
  if (OPENAPI_WIDTHS.has(format)) return {};
  if (opts.formats !== 'as-patterns') return { format };
  return format === 'date-time' && !('pattern' in schema) ? { pattern: DATE_TIME_PATTERN } : {};
}

/** `type: [T, 'null']` (or several types) said as `anyOf` of one type each; annotations stay outside. */
function withoutTypeList(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type as string[];
  if (types.length === 1) return { ...schema, type: types[0] };
  const outside: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') continue;
    if (ANNOTATIONS.includes(key)) outside[key] = value;
    else constraints[key] = value;
  }
  const branches = types.map((type): JsonSchema => {
    if (type === 'null') return { type: 'null' };
    const branch: JsonSchema = { type, ...constraints };
    // `null` in an enum is admitted by the null branch; each branch lists its own type's values.
    if (Array.isArray(constraints.enum)) branch.enum = constraints.enum.filter((v) => v !== null);
    return branch;
  });
  return { anyOf: branches, ...outside };
}
