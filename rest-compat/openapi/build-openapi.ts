import type { GraphQLSchema } from 'graphql';
import type { z } from 'zod';
import { type RouteRow, type RouteTable, rowCredentials } from '../route-row.js';
import { rowOperation } from '../row-operation.js';
import { errorResponses } from './error-responses.js';
import { graphqlJsonSchemas } from './graphql-json-schema.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  PathItemObject,
  Reference,
  ResponseObject,
} from './openapi-types.js';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './rate-limit-headers.js';
import { rowParameters } from './row-parameters.js';
import { rowResponses } from './row-responses.js';
import { operationSecurity, SECURITY_SCHEMES } from './security-schemes.js';
import { zodJsonSchema } from './zod-json-schema.js';

export interface BuildOpenApiParams {
  /** The one route table; every row becomes one operation. */
  table: RouteTable;
  /** The supergraph API schema (what /graphql serves). */
  schema: GraphQLSchema;
  /** Base address of the service; relative `/` by default, so the document works behind any host. */
  serverUrl?: string;
  /** Descriptions of the tags (docs/api-contract.md#areas), by tag name. */
  tagDescriptions?: Record<string, string>;
  /** Price in USD of counted rows that set none (the configured default); omitted = only priced rows document 402. */
  defaultPriceUsd?: string;
}

const DESCRIPTION = [
  'Read access to blockchain identity (ENS, Farcaster), market, DeFi, wallet and chain data, and an ERC-3668 (CCIP-Read) gateway for ENS subnames.',
  '',
  'Every REST path runs one field of the federated GraphQL supergraph that is also served at `/graphql`, so both answer with the same shapes.',
  '',
  'Access: anonymous (per IP, 100 calls a day), a SIWE session (`Authorization: Bearer`), an API key (`X-API-Key`) or a per-request x402 payment in USDC on Base (`X-PAYMENT`).',
  "Each operation's `security` lists what it accepts: free operations need nothing; credentials that are sent are checked everywhere, so a bad key or token is a 401 on every operation.",
  'Counted responses carry the `X-RateLimit-*` headers; `x-tier` and `x-price-usd` on each operation give its tier and price.',
  '',
  'Errors use the envelope `{ error: true, code, message, timestamp }`; the CCIP routes use `{ error, code, message }`.',
].join('\n');

/**
 * The OpenAPI 3.1 document of the route table, response schemas taken from the supergraph's types.
 * @example const doc = buildOpenApi({ table, schema: gateway.schema, serverUrl: 'https://api.example.com' })
 */
export function buildOpenApi({
  table,
  schema,
  serverUrl,
  tagDescriptions = {},
  defaultPriceUsd,
}: BuildOpenApiParams): OpenApiDocument {
  const graphql = graphqlJsonSchemas({ schema });
  const errors = errorResponses();

  // Responses first: their component names (GraphQL types, envelopes) win over request-schema ids.
  const responses = new Map<RouteRow, Record<string, ResponseObject | Reference>>();
  const operations = new Map<RouteRow, string>();
  for (const row of table.rows) {
    const operation = row.kind === 'operation' ? rowOperation(row, schema) : undefined;
    if (operation !== undefined) operations.set(row, operation);
    const paid = priceOf(row, defaultPriceUsd) !== undefined;
    responses.set(row, rowResponses({ row, schema, graphql, errors, paid, operation }));
  }

  const inputSchemas: Record<string, JsonSchema> = {};
  const taken = (name: string): boolean => graphql.components[name] !== undefined || errors.schemas[name] !== undefined;
  const componentName = (id: string): string => (taken(id) ? `${id}Input` : id);
  const convert = (object: z.ZodObject) => {
    const converted = zodJsonSchema({ schema: object, componentName });
    Object.assign(inputSchemas, converted.defs);
    return converted;
  };

  const paths: Record<string, PathItemObject> = {};
  const tags: string[] = [];
  for (const row of table.rows) {
    const method = row.method.toLowerCase() as keyof PathItemObject;
    const item = (paths[row.path] ??= {});
    if (item[method] !== undefined)
      throw new Error(`route ${row.id}: ${row.method} ${row.path} is already in the table`);
    if (!tags.includes(row.tag)) tags.push(row.tag);
    const { parameters, requestBody } = rowParameters({ row, convert });
    const price = priceOf(row, defaultPriceUsd);
    const operation: OperationObject = {
      operationId: row.id,
      summary: row.summary,
      ...(row.description ? { description: row.description } : {}),
      tags: [row.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: responses.get(row) ?? {},
      security: operationSecurity({
        credentials: rowCredentials(row),
        payable: price !== undefined || (row.errors ?? []).includes(402),
      }),
      'x-tier': row.tier,
      ...(price !== undefined ? { 'x-price-usd': price } : {}),
      ...(operations.has(row) ? { 'x-graphql-operation': operations.get(row) } : {}),
    };
    item[method] = operation;
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Blockchain Identity and Market Data API', version: '3.0.0', description: DESCRIPTION },
    servers: [{ url: serverUrl ?? '/' }],
    tags: tags.map((name) => ({ name, ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}) })),
    paths,
    components: {
      schemas: sortedByKey({ ...inputSchemas, ...graphql.components, ...errors.schemas }),
      responses: sortedByKey(errors.responses),
      headers: { 'Retry-After': RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** A free row is never charged; sign-in and key management are not sold; any other row pays its own price or the default. */
function priceOf(row: RouteRow, defaultPriceUsd: string | undefined): string | undefined {
  if (row.tier === 'free') return row.price;
  if (row.tier === 'auth') return undefined;
  return row.price ?? defaultPriceUsd;
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
