import type { JsonSchema } from '../../rest-compat/openapi/openapi-types.js';
import type { OperationSchemas } from '../../rest-compat/openapi/operation-schemas.js';
import { portableJsonSchema } from '../../rest-compat/openapi/portable-json-schema.js';
import { schemaExample } from '../../rest-compat/openapi/schema-example.js';
import type { HttpMethod } from '../../rest-compat/route-row.js';

/**
 * x402's `bazaar` discovery extension: how to call a paid resource (`info`) and the JSON Schema `info` conforms to,
 * so that facilitators and agents can list it and call it without reading our docs.
 */
export interface BazaarExtension {
  info: {
    input: Record<string, unknown>;
    output?: { type: 'json'; example: unknown };
  };
  schema: JsonSchema;
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The service's name on a bazaar listing (`resource.serviceName`: printable ASCII, at most 32 characters). */
export const SERVICE_NAME = 'Chain Identity API';
/** x402 bazaar limits on `resource.tags`: at most 5, each printable ASCII of 1 to 32 characters. */
const MAX_TAGS = 5;
const TAG = /^[\x20-\x7e]{1,32}$/;

/** A listing's tags within the bazaar's limits. */
export function bazaarTags(tags: readonly string[]): string[] {
  return [...new Set(tags.filter((t) => TAG.test(t)))].slice(0, MAX_TAGS);
}

type Part = 'path' | 'query' | 'body';

function propertiesOf(
  schemas: OperationSchemas,
  part?: Part,
): { properties: Record<string, JsonSchema>; required: string[] } {
  const all = schemas.inputSchema.properties as Record<string, JsonSchema>;
  const required = (schemas.inputSchema.required ?? []) as string[];
  const names = Object.keys(all).filter((n) => part === undefined || schemas.argumentParts[n] === part);
  return {
    properties: Object.fromEntries(names.map((n) => [n, all[n]!])),
    required: required.filter((n) => names.includes(n)),
  };
}

function objectSchema(p: { properties: Record<string, JsonSchema>; required: string[] }): JsonSchema {
  return {
    type: 'object',
    properties: p.properties,
    ...(p.required.length > 0 ? { required: p.required } : {}),
    additionalProperties: false,
  };
}

/** Example arguments of one part: the document's examples, a sample of the schema for a required one it lacks. */
function exampleOf(schemas: OperationSchemas, part: Part, defs: Record<string, JsonSchema>): Record<string, unknown> {
  const { properties, required } = propertiesOf(schemas, part);
  const example: Record<string, unknown> = { ...schemas.inputExample[part] };
  for (const name of required) {
    if (example[name] === undefined) example[name] = schemaExample({ ...properties[name], $defs: defs });
  }
  return example;
}

function outputOf(schemas: OperationSchemas): { info?: BazaarExtension['info']['output']; schema?: JsonSchema } {
  if (!schemas.responseSchema) return {};
  const { $defs: _defs, ...body } = schemas.responseSchema;
  return {
    info: { type: 'json', example: schemaExample(schemas.responseSchema) },
    schema: {
      type: 'object',
      properties: { type: { type: 'string' }, example: body },
      required: ['type', 'example'],
    },
  };
}

/** `$defs` of the input and output schemas, hoisted to the root where their `#/$defs/…` references point. */
function rootDefs(schemas: OperationSchemas): Record<string, JsonSchema> {
  return {
    ...((schemas.inputSchema.$defs ?? {}) as Record<string, JsonSchema>),
    ...((schemas.responseSchema?.$defs ?? {}) as Record<string, JsonSchema>),
  };
}

function extension(
  input: Record<string, unknown>,
  inputSchema: JsonSchema,
  schemas: OperationSchemas,
): BazaarExtension {
  const output = outputOf(schemas);
  const defs = rootDefs(schemas);
  return {
    info: { input, ...(output.info ? { output: output.info } : {}) },
    // The OpenAPI document's schemas in plain JSON Schema: bazaar clients validate them with a JSON Schema library, one
    // in strict mode refuses OpenAPI's `example`, and x402's own validator knows no formats (it warns about each).
    schema: portableJsonSchema(
      {
        $schema: DIALECT,
        type: 'object',
        properties: { input: inputSchema, ...(output.schema ? { output: output.schema } : {}) },
        required: ['input'],
        ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
      },
      { formats: 'as-patterns' },
    ),
  };
}

/**
 * The bazaar extension of an HTTP route: its method, path/query parameters or JSON body with the document's
 * examples, and a sample of its 200 body.
 * @example httpDiscovery({ method: 'GET', schemas }).info.input // { type: 'http', method: 'GET', pathParams: { name: 'alice.eth' } }
 */
export function httpDiscovery(p: { method: HttpMethod; schemas: OperationSchemas }): BazaarExtension {
  const { schemas, method } = p;
  const defs = rootDefs(schemas);
  const withBody = method === 'POST' || method === 'PATCH';
  const has = (part: Part) => Object.keys(propertiesOf(schemas, part).properties).length > 0;
  const input: Record<string, unknown> = { type: 'http', method };
  const properties: Record<string, JsonSchema> = {
    type: { type: 'string', const: 'http' },
    method: { type: 'string', enum: [method] },
  };
  const required = ['type', 'method'];
  if (has('path')) {
    input.pathParams = exampleOf(schemas, 'path', defs);
    properties.pathParams = objectSchema(propertiesOf(schemas, 'path'));
  }
  if (has('query')) {
    input.queryParams = exampleOf(schemas, 'query', defs);
    properties.queryParams = objectSchema(propertiesOf(schemas, 'query'));
  }
  if (withBody) {
    input.bodyType = 'json';
    input.body = exampleOf(schemas, 'body', defs);
    properties.bodyType = { type: 'string', enum: ['json'] };
    properties.body = objectSchema(propertiesOf(schemas, 'body'));
    required.push('bodyType', 'body');
  }
  return extension(input, { type: 'object', properties, required, additionalProperties: false }, schemas);
}

/**
 * The bazaar extension of an MCP tool: its name, description, input schema and example arguments, and a sample of
 * its result.
 * @example mcpDiscovery({ toolName: 'resolve_ens_name', description, schemas }).info.input.toolName
 */
export function mcpDiscovery(p: { toolName: string; description: string; schemas: OperationSchemas }): BazaarExtension {
  const { schemas } = p;
  const defs = rootDefs(schemas);
  const { $defs: _defs, ...argumentsSchema } = schemas.inputSchema;
  const example = {
    ...exampleOf(schemas, 'path', defs),
    ...exampleOf(schemas, 'query', defs),
    ...exampleOf(schemas, 'body', defs),
  };
  const input = {
    type: 'mcp',
    toolName: p.toolName,
    description: p.description,
    transport: 'streamable-http',
    inputSchema: schemas.inputSchema,
    example,
  };
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: {
      type: { type: 'string', const: 'mcp' },
      toolName: { type: 'string', const: p.toolName },
      description: { type: 'string' },
      transport: { type: 'string', enum: ['streamable-http'] },
      inputSchema: { type: 'object' },
      example: argumentsSchema,
    },
    required: ['type', 'toolName', 'inputSchema'],
    additionalProperties: false,
  };
  return extension(input, inputSchema, schemas);
}

/**
 * x402 v1 has no extensions: its requirement's `outputSchema` carries the same discovery (`input` with
 * `discoverable: true`, `output` the sample body), which v1 facilitators read for their listings.
 */
export function v1OutputSchema(discovery: BazaarExtension): Record<string, unknown> | undefined {
  const { input, output } = discovery.info;
  if (input.type !== 'http') return undefined;
  return { input: { ...input, discoverable: true }, ...(output ? { output: output.example } : {}) };
}

/** POST /graphql as a bazaar listing: a JSON body with the query (an example that a REST row also answers). */
export const GRAPHQL_DISCOVERY: BazaarExtension = httpDiscovery({
  method: 'POST',
  schemas: {
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'a GraphQL operation on the supergraph (GET /api/openapi.yaml and the SDL describe it)',
        },
        variables: { type: 'object', description: 'values of the operation variables' },
        operationName: { type: 'string' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: undefined,
    argumentParts: { query: 'body', variables: 'body', operationName: 'body' },
    inputExample: {
      path: {},
      query: {},
      body: {
        query: 'query ($name: String!) { ensResolve(name: $name) { name address } }',
        variables: { name: 'alice.eth' },
      },
    },
    responseSchema: {
      type: 'object',
      properties: {
        data: {
          type: 'object',
          example: { ensResolve: { name: 'alice.eth', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } },
        },
      },
    },
  },
});
