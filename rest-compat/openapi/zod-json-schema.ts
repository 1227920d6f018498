import { z } from 'zod';
import type { JsonSchema } from './openapi-types.js';

export interface ZodJsonSchemaParams {
  /** A request schema of a route row (path, query or body object). */
  schema: z.ZodType;
  /** The `components.schemas` name for a zod schema registered with `.meta({ id })`. */
  componentName: (id: string) => string;
}

export interface ZodJsonSchema {
  /** The schema to place in the document; a `$ref` when the root itself has an id. */
  schema: JsonSchema;
  /** The root with a `$ref` to its own definition followed, to read properties and `required` from. */
  resolved: JsonSchema;
  /** Named definitions, keyed by component name, to merge into `components.schemas`. */
  defs: Record<string, JsonSchema>;
}

const DEFS_PREFIX = '#/$defs/';

/**
 * The input side of a zod schema (what a client sends: defaults make a field optional) as OpenAPI 3.1 JSON Schema.
 * @example zodJsonSchema({ schema: z.object({ limit: z.coerce.number().default(20) }), componentName: (id) => id })
 */
export function zodJsonSchema({ schema, componentName }: ZodJsonSchemaParams): ZodJsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...root } = raw;
  const rawDefs = ($defs ?? {}) as Record<string, JsonSchema>;
  const rewrite = (value: unknown): unknown => rewriteRefs(value, componentName);
  const defs: Record<string, JsonSchema> = {};
  for (const [id, def] of Object.entries(rawDefs)) defs[componentName(id)] = rewrite(def) as JsonSchema;

  const rootRef =
    typeof root.$ref === 'string' && root.$ref.startsWith(DEFS_PREFIX)
      ? root.$ref.slice(DEFS_PREFIX.length)
      : undefined;
  const resolved =
    rootRef !== undefined ? (rewrite(rawDefs[rootRef] ?? {}) as JsonSchema) : (rewrite(root) as JsonSchema);
  return { schema: rewrite(root) as JsonSchema, resolved, defs };
}

/** Points zod's local `#/$defs/X` references at `#/components/schemas/<name>`. */
function rewriteRefs(value: unknown, componentName: (id: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, componentName));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith(DEFS_PREFIX)
        ? `#/components/schemas/${componentName(inner.slice(DEFS_PREFIX.length))}`
        : rewriteRefs(inner, componentName);
  }
  return out;
}
