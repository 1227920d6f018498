import type { z } from 'zod';
import type { RouteRow } from '../route-row.js';
import type { JsonSchema, ParameterObject, RequestBodyObject } from './openapi-types.js';
import type { ZodJsonSchema } from './zod-json-schema.js';

export interface RowParametersParams {
  row: RouteRow;
  /** zod → JSON Schema, registering named definitions in the document as a side effect. */
  convert: (schema: z.ZodObject) => ZodJsonSchema;
}

export interface RowParameters {
  parameters: ParameterObject[];
  requestBody?: RequestBodyObject;
}

const PATH_TEMPLATE = /\{([^}]+)\}/g;

/**
 * The path and query parameters and the JSON request body of a row, from its zod objects.
 * @example rowParameters({ row: ensResolveRow, convert }).parameters[0] // { name: 'name', in: 'path', required: true, … }
 */
export function rowParameters({ row, convert }: RowParametersParams): RowParameters {
  const parameters: ParameterObject[] = [];
  const pathNames = [...row.path.matchAll(PATH_TEMPLATE)].map((match) => match[1] as string);
  const path = row.params?.path ? convert(row.params.path).resolved : undefined;
  const pathProperties = propertiesOf(path);
  for (const name of Object.keys(pathProperties)) {
    if (!pathNames.includes(name)) throw new Error(`route ${row.id}: path parameter "${name}" is not in ${row.path}`);
  }
  for (const name of pathNames) {
    parameters.push(parameter(name, 'path', true, pathProperties[name] ?? { type: 'string' }));
  }

  const query = row.params?.query ? convert(row.params.query).resolved : undefined;
  const required = requiredOf(query);
  for (const [name, schema] of Object.entries(propertiesOf(query))) {
    parameters.push(parameter(name, 'query', required.includes(name), schema));
  }

  const result: RowParameters = { parameters };
  if (row.params?.body) {
    const body = convert(row.params.body);
    const example = exampleOf(body.resolved);
    result.requestBody = {
      required: requiredOf(body.resolved).length > 0,
      content: { 'application/json': { schema: body.schema, ...(example !== undefined ? { example } : {}) } },
    };
  }
  return result;
}

/** One parameter; the schema's description, deprecation and example move up to the parameter, where UIs show them. */
function parameter(name: string, location: 'path' | 'query', required: boolean, source: JsonSchema): ParameterObject {
  const { description, deprecated, example: _example, ...schema } = source;
  const example = exampleOf(source);
  return {
    name,
    in: location,
    required,
    ...(typeof description === 'string' ? { description } : {}),
    ...(deprecated === true ? { deprecated: true } : {}),
    schema,
    ...(example !== undefined ? { example } : {}),
  };
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.properties ?? {}) as Record<string, JsonSchema>;
}

function requiredOf(schema: JsonSchema | undefined): string[] {
  return Array.isArray(schema?.required) ? (schema.required as string[]) : [];
}

function exampleOf(schema: JsonSchema): unknown {
  if (schema.example !== undefined) return schema.example;
  return Array.isArray(schema.examples) ? schema.examples[0] : undefined;
}
