import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject, ResponseObject } from './openapi-types.js';
import { portableJsonSchema } from './portable-json-schema.js';

/** One documented operation's input and output as plain JSON Schemas (MCP tools, x402 discovery), from the OpenAPI document. */
export interface OperationSchemas {
  /** Path, query and body parameters as one object; `$defs` hold the document components they reference. */
  inputSchema: JsonSchema & { type: 'object' };
  /** The 200 body's schema when it is a JSON object (MCP's `structuredContent` is one); undefined otherwise. */
  outputSchema: (JsonSchema & { type: 'object' }) | undefined;
  /** Which part of the HTTP request each argument belongs to. */
  argumentParts: Record<string, 'path' | 'query' | 'body'>;
  /** Example arguments from the document's parameter and body examples (absent ones are left out). */
  inputExample: { path: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> };
  /** The 200 body's schema as the document writes it (possibly a `$ref`), with its `$defs`. */
  responseSchema: JsonSchema | undefined;
}

const COMPONENT_REF = '#/components/schemas/';

/** Points `#/components/schemas/X` at `#/$defs/X` and notes each name it met. */
function localRefs(value: unknown, met: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => localRefs(v, met));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)) {
      const name = inner.slice(COMPONENT_REF.length);
      met.add(name);
      out[key] = `#/$defs/${name}`;
    } else out[key] = localRefs(inner, met);
  }
  return out;
}

/** A schema made self-contained: every component it reaches, transitively, copied into `$defs`. */
export function selfContained(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const met = new Set<string>();
  const root = localRefs(schema, met) as JsonSchema;
  const defs: Record<string, JsonSchema> = {};
  const pending = [...met];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (defs[name] !== undefined) continue;
    const component = components[name];
    if (component === undefined) throw new Error(`the OpenAPI document has no schema ${name}`);
    const found = new Set<string>();
    defs[name] = localRefs(component, found) as JsonSchema;
    for (const next of found) if (defs[next] === undefined) pending.push(next);
  }
  return Object.keys(defs).length > 0 ? { ...root, $defs: { ...(root.$defs as object), ...defs } } : root;
}

/** `$defs` names a value refers to (`#/$defs/X`), not looking inside `$defs` itself. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) into.add(inner.slice(8));
      else if (key !== '$defs') refsIn(inner, into);
    }
  }
  return into;
}

/** Only the definitions the schema reaches (a root that was inlined leaves its own behind). */
function reachableDefs(root: unknown, defs: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const kept: Record<string, JsonSchema> = {};
  const pending = [...refsIn(root, new Set())];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (kept[name] !== undefined || defs[name] === undefined) continue;
    kept[name] = defs[name];
    pending.push(...refsIn(defs[name], new Set()));
  }
  return kept;
}

/** Follows a root `$ref` to its definition (a tool schema's root must be an object, not a reference). */
function resolvedRoot(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  const defs = schema.$defs as Record<string, JsonSchema>;
  const { $ref: _ref, ...rest } = schema;
  return { ...defs[ref.slice('#/$defs/'.length)], ...rest };
}

function jsonContent(response: ResponseObject | undefined): { schema?: JsonSchema; example?: unknown } | undefined {
  return response?.content?.['application/json'];
}

/**
 * The schemas of one documented operation: its parameters and JSON body merged into one input object, its 200
 * body as the output. A name used by two parts stops the server at start (the arguments could not be told apart).
 * @example operationSchemas(document, document.paths['/api/ens/resolve/{name}'].get).inputSchema.required // ['name']
 */
export function operationSchemas(document: OpenApiDocument, operation: OperationObject): OperationSchemas {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const argumentParts: OperationSchemas['argumentParts'] = {};
  const inputExample: OperationSchemas['inputExample'] = { path: {}, query: {}, body: {} };
  const add = (name: string, part: 'path' | 'query' | 'body', schema: JsonSchema, isRequired: boolean) => {
    if (argumentParts[name] !== undefined)
      throw new Error(
        `operation ${operation.operationId}: argument ${name} is both ${argumentParts[name]} and ${part}`,
      );
    argumentParts[name] = part;
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  for (const p of (operation.parameters ?? []) as ParameterObject[]) {
    const schema: JsonSchema = {
      ...p.schema,
      ...(p.description ? { description: p.description } : {}),
      ...(p.example !== undefined ? { examples: [p.example] } : {}),
    };
    add(p.name, p.in, schema, p.required);
    if (p.example !== undefined) inputExample[p.in][p.name] = p.example;
  }
  const body = operation.requestBody?.content['application/json'];
  let defs: Record<string, JsonSchema> = {};
  if (body) {
    const contained = resolvedRoot(selfContained(document, body.schema));
    defs = (contained.$defs ?? {}) as Record<string, JsonSchema>;
    const bodyRequired = Array.isArray(contained.required) ? (contained.required as string[]) : [];
    for (const [name, schema] of Object.entries((contained.properties ?? {}) as Record<string, JsonSchema>)) {
      add(name, 'body', schema, bodyRequired.includes(name));
    }
    if (body.example && typeof body.example === 'object') Object.assign(inputExample.body, body.example);
  }
  const parameters = selfContained(document, { properties });
  const inputDefs = reachableDefs(parameters.properties, {
    ...((parameters.$defs ?? {}) as Record<string, JsonSchema>),
    ...defs,
  });
  const inputSchema = portableJsonSchema({
    type: 'object' as const,
    properties: parameters.properties as Record<string, JsonSchema>,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(inputDefs).length > 0 ? { $defs: inputDefs } : {}),
  });

  const ok = jsonContent(operation.responses['200'] as ResponseObject | undefined);
  const responseSchema = ok?.schema ? selfContained(document, ok.schema) : undefined;
  const root = responseSchema ? resolvedRoot(responseSchema) : undefined;
  const outputSchema = root?.type === 'object' ? portableJsonSchema({ ...root, type: 'object' as const }) : undefined;
  return { inputSchema, outputSchema, argumentParts, inputExample, responseSchema };
}
