/** A parsed OpenAPI document (3.0 or 3.1), as JSON. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, unknown> };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are data (examples, defaults, enums), never schemas: left as written. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const', 'x-codeSamples']);

/**
 * One OpenAPI 3.0 schema object as JSON Schema 2020-12: `nullable: true` adds null to the type (or wraps a
 * composition in `anyOf [… , null]`), and the draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers.
 */
function translateSchemaNode(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...node };
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[bound] !== 'boolean') continue;
    if (out[bound] === true && typeof out[limit] === 'number') {
      out[bound] = out[limit];
      delete out[limit];
    } else delete out[bound];
  }
  // Only the boolean is the keyword (a property may be named `nullable`).
  if (typeof out.nullable !== 'boolean') return out;
  const nullable = out.nullable;
  delete out.nullable;
  if (!nullable) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  if (Array.isArray(out.type)) return out.type.includes('null') ? out : { ...out, type: [...out.type, 'null'] };
  // No type of its own (allOf / oneOf / $ref): null is one more alternative.
  return { anyOf: [out, { type: 'null' }] };
}

/** An `enum` that lists null says the value may be null, even where `type` forgot to (Sourcify's `…Nullable` enums). */
function admitEnumNull(node: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(node.enum) || !node.enum.includes(null)) return node;
  if (typeof node.type === 'string' && node.type !== 'null') return { ...node, type: [node.type, 'null'] };
  if (Array.isArray(node.type) && !node.type.includes('null')) return { ...node, type: [...node.type, 'null'] };
  return node;
}

function translate(value: unknown, openApi30: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => translate(v, openApi30));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value))
    copy[key] = DATA_KEYS.has(key) ? child : translate(child, openApi30);
  const node = admitEnumNull(copy);
  return openApi30 && ('nullable' in node || 'exclusiveMinimum' in node || 'exclusiveMaximum' in node)
    ? translateSchemaNode(node)
    : node;
}

/**
 * The document with every schema in JSON Schema 2020-12, as Ajv2020 reads it, null honoured the way the vendor
 * writes it: OpenAPI 3.0's `nullable: true` (and its boolean exclusive bounds) translated; in 3.1 documents, already
 * JSON Schema with null in type arrays, only an `enum` listing null next to a non-null `type` is widened.
 * @example toJsonSchemaDialect({ openapi: '3.0.4', paths: {}, components: { schemas: { A: { type: 'string', nullable: true } } } })
 */
export function toJsonSchemaDialect(doc: OpenApiDocument): OpenApiDocument {
  return translate(doc, doc.openapi.startsWith('3.0')) as OpenApiDocument;
}
