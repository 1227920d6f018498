/** A JSON Schema (draft 2020-12, the OpenAPI 3.1 dialect) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** `{ $ref: '#/components/…' }` — every shared piece of the document is reached through one. */
export interface Reference {
  $ref: string;
}

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface RequestBodyObject {
  required: boolean;
  description?: string;
  content: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  security?: SecurityRequirement[];
  'x-tier': string;
  'x-price-usd'?: string;
  /** The GraphQL operation an operation row runs on the supergraph, exactly as the server runs it. */
  'x-graphql-operation'?: string;
}

export type PathItemObject = Partial<Record<'get' | 'post' | 'patch' | 'delete', OperationObject>>;

export interface SecuritySchemeObject {
  type: 'apiKey' | 'http';
  description?: string;
  name?: string;
  in?: 'header';
  scheme?: string;
  bearerFormat?: string;
}

export interface ComponentsObject {
  schemas: Record<string, JsonSchema>;
  responses: Record<string, ResponseObject>;
  headers: Record<string, HeaderObject>;
  securitySchemes: Record<string, SecuritySchemeObject>;
}

/** The OpenAPI 3.1 document as this project writes it. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, PathItemObject>;
  components: ComponentsObject;
}

/** The `$ref` to a named component. @example componentRef('schemas', 'GasPrices') */
export function componentRef(section: keyof ComponentsObject, name: string): Reference {
  return { $ref: `#/components/${section}/${name}` };
}
