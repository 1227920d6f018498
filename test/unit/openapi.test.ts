import { Validator } from '@seriousme/openapi-schema-validator';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { buildOpenApi } from '../../rest-compat/openapi/build-openapi.js';
import type {
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
} from '../../rest-compat/openapi/openapi-types.js';
import { renderOpenApiYaml } from '../../rest-compat/openapi/openapi-yaml.js';
import type { RootFieldName } from '../../rest-compat/root-field.js';
import type { RouteRow, RouteTable } from '../../rest-compat/route-row.js';

const schema = buildSchema(/* GraphQL */ `
  "Fee suggestion for one speed, in gwei"
  type GasSpeed { maxPriorityFeePerGas: String! maxFeePerGas: String! }
  type GasPrices { chain: String! chainId: Int! slow: GasSpeed! fast: GasSpeed! note: String }
  type EnsName { name: String! address: String avatar: String }
  type BulkResult { results: [EnsName!]! count: Int! }
  type CcipAnswer { data: String! signature: String! validUntil: Int! }
  type Query {
    gasPrices(chain: String): GasPrices!
    "Forward resolution of an ENS name"
    ensResolve(name: String!): EnsName
    ensBulk(names: [String!]!): BulkResult!
    ccipResolve(sender: String!, data: String!): CcipAnswer!
  }
`);

const ensName = z.string().min(3).describe('ENS name, e.g. vitalik.eth').meta({ example: 'vitalik.eth' });

const rows: RouteRow[] = [
  {
    kind: 'operation',
    id: 'getGasPrices',
    method: 'GET',
    path: '/api/gas',
    tag: 'Free',
    summary: 'Gas prices',
    tier: 'free',
    params: { query: z.object({ chain: z.string().optional(), blocks: z.coerce.number().int().max(100).default(20) }) },
    field: 'gasPrices' as RootFieldName,
  },
  {
    kind: 'operation',
    id: 'resolveEnsName',
    method: 'GET',
    path: '/api/ens/resolve/{name}',
    tag: 'ENS',
    summary: 'Resolve an ENS name to an address',
    tier: 'light',
    price: '0.01',
    params: { path: z.object({ name: ensName }), query: z.object({ chain: z.enum(['ethereum', 'base']) }) },
    field: 'ensResolve' as RootFieldName,
  },
  {
    kind: 'operation',
    id: 'bulkResolveEnsNames',
    method: 'POST',
    path: '/api/ens/bulk',
    tag: 'ENS',
    summary: 'Resolve many ENS names',
    tier: 'heavy',
    params: {
      body: z.object({ names: z.array(ensName).min(1).max(100) }).meta({ examples: [{ names: ['vitalik.eth'] }] }),
    },
    field: 'ensBulk' as RootFieldName,
    errors: [413],
  },
  {
    kind: 'operation',
    id: 'ccipResolve',
    method: 'GET',
    path: '/ccip/{sender}/{data}.json',
    tag: 'CCIP',
    summary: 'ERC-3668 gateway lookup',
    tier: 'light',
    envelope: 'ccip',
    params: { path: z.object({ sender: z.string(), data: z.string() }) },
    field: 'ccipResolve' as RootFieldName,
  },
  {
    kind: 'document',
    id: 'getOpenApiDocument',
    method: 'GET',
    path: '/api/openapi.yaml',
    tag: 'Free',
    summary: 'This description, as YAML',
    tier: 'free',
    contentType: 'application/yaml; charset=utf-8',
    render: () => '',
  },
];

const table: RouteTable = { rows };
const doc = buildOpenApi({ table, schema });

function operation(path: string, method: 'get' | 'post'): OperationObject {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} missing`);
  return op;
}

/** Follows a `$ref` inside the document. */
function deref<T>(value: unknown): T {
  const ref = (value as { $ref?: string }).$ref;
  if (ref === undefined) return value as T;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc) as T;
}

function statuses(op: OperationObject): string[] {
  return Object.keys(op.responses);
}

describe('the OpenAPI document built from the route table', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('declares version 3.0.0 and a relative server by default', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('3.0.0');
    expect(doc.info.title).toBe('Blockchain Identity and Market Data API');
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(buildOpenApi({ table, schema, serverUrl: 'https://api.example.com' }).servers).toEqual([
      { url: 'https://api.example.com' },
    ]);
  });

  it('lists each row at its exact path and method, operationId = row id', () => {
    for (const row of rows) {
      const op = operation(row.path, row.method.toLowerCase() as 'get' | 'post');
      expect(op.operationId).toBe(row.id);
      expect(op.tags).toEqual([row.tag]);
      expect(op['x-tier']).toBe(row.tier);
    }
    expect(Object.keys(doc.paths)).toEqual(rows.map((row) => row.path));
    expect(doc.tags.map((tag) => tag.name)).toEqual(['Free', 'ENS', 'CCIP']);
  });

  it('makes path parameters required, and query parameters required unless optional or defaulted', () => {
    const resolve = operation('/api/ens/resolve/{name}', 'get').parameters as ParameterObject[];
    expect(resolve.find((p) => p.name === 'name')).toMatchObject({
      in: 'path',
      required: true,
      description: 'ENS name, e.g. vitalik.eth',
      example: 'vitalik.eth',
      schema: { type: 'string', minLength: 3 },
    });
    expect(resolve.find((p) => p.name === 'chain')).toMatchObject({
      in: 'query',
      required: true,
      schema: { enum: ['ethereum', 'base'] },
    });

    const ccip = operation('/ccip/{sender}/{data}.json', 'get').parameters as ParameterObject[];
    expect(ccip.map((p) => [p.name, p.in, p.required])).toEqual([
      ['sender', 'path', true],
      ['data', 'path', true],
    ]);

    const gas = operation('/api/gas', 'get').parameters as ParameterObject[];
    expect(gas.map((p) => [p.name, p.required])).toEqual([
      ['chain', false],
      ['blocks', false],
    ]);
    expect(gas[1]?.schema).toMatchObject({ type: 'integer', default: 20, maximum: 100 });
  });

  it('takes the JSON request body from the body schema', () => {
    const body = operation('/api/ens/bulk', 'post').requestBody;
    expect(body?.required).toBe(true);
    const media = body?.content['application/json'];
    expect(media?.example).toEqual({ names: ['vitalik.eth'] });
    expect(media?.schema).toMatchObject({
      type: 'object',
      required: ['names'],
      properties: { names: { type: 'array', minItems: 1, maxItems: 100 } },
    });
  });

  it('answers 200 with the type of the GraphQL field, its fields in components.schemas', () => {
    const ok = deref<ResponseObject>(operation('/api/gas', 'get').responses['200']);
    expect(ok.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/GasPrices' });
    const gasPrices = doc.components.schemas.GasPrices as { required: string[]; properties: Record<string, unknown> };
    expect(Object.keys(gasPrices.properties)).toEqual(['chain', 'chainId', 'slow', 'fast', 'note']);
    // Every field is answered, a nullable one with null: all are required.
    expect(gasPrices.required).toEqual(['chain', 'chainId', 'slow', 'fast', 'note']);
    expect(gasPrices.properties.slow).toEqual({ $ref: '#/components/schemas/GasSpeed' });
    expect(gasPrices.properties.chainId).toMatchObject({ type: 'integer' });
    expect(gasPrices.properties.note).toEqual({ type: ['string', 'null'] });
    expect(doc.components.schemas.GasSpeed).toMatchObject({ description: 'Fee suggestion for one speed, in gwei' });

    const resolveOk = deref<ResponseObject>(operation('/api/ens/resolve/{name}', 'get').responses['200']);
    expect(resolveOk.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/EnsName' });
    expect(resolveOk.description).toBe('Forward resolution of an ENS name');

    const bulk = doc.components.schemas.BulkResult as { properties: Record<string, unknown> };
    expect(bulk.properties.results).toEqual({ type: 'array', items: { $ref: '#/components/schemas/EnsName' } });
    expect(doc.components.schemas.CcipAnswer).toBeDefined();
  });

  it('answers document rows with their content type', () => {
    const ok = deref<ResponseObject>(operation('/api/openapi.yaml', 'get').responses['200']);
    expect(ok.content).toEqual({ 'application/yaml': { schema: { type: 'string' } } });
  });

  it('documents 404 only where the field is nullable', () => {
    expect(statuses(operation('/api/ens/resolve/{name}', 'get'))).toContain('404');
    expect(statuses(operation('/api/gas', 'get'))).not.toContain('404');
    expect(statuses(operation('/api/ens/bulk', 'post'))).not.toContain('404');
  });

  it('documents 429 for counted tiers, 402 for priced rows, 400 with parameters, 401 and 500 always, 503 for operations', () => {
    expect(statuses(operation('/api/gas', 'get'))).toEqual(['200', '400', '401', '500', '503']);
    expect(statuses(operation('/api/ens/resolve/{name}', 'get'))).toEqual([
      '200',
      '400',
      '401',
      '402',
      '404',
      '429',
      '500',
      '503',
    ]);
    expect(statuses(operation('/api/ens/bulk', 'post'))).toEqual(['200', '400', '401', '413', '429', '500', '503']);
    expect(statuses(operation('/api/openapi.yaml', 'get'))).toEqual(['200', '401', '500']);
  });

  it('points error responses at the shared envelopes', () => {
    const resolve = operation('/api/ens/resolve/{name}', 'get');
    expect(resolve.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    const notFound = deref<ResponseObject>(resolve.responses['404']);
    expect(notFound.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });

    const limited = deref<ResponseObject>(resolve.responses['429']);
    expect(limited.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/RateLimitError' });
    expect(Object.keys(limited.headers ?? {})).toContain('Retry-After');
    expect(doc.components.schemas.RateLimitError).toMatchObject({
      required: ['error', 'code', 'message', 'retryAfter', 'tier', 'limit', 'suggestion', 'timestamp'],
    });

    const ccipBad = deref<ResponseObject>(operation('/ccip/{sender}/{data}.json', 'get').responses['400']);
    expect(ccipBad.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/CcipError' });
    expect(doc.components.schemas.CcipError).toMatchObject({ properties: { error: { type: 'string' } } });
  });

  it('puts price, tier and X-RateLimit headers on counted operations only, and on each the security it accepts', () => {
    const resolve = operation('/api/ens/resolve/{name}', 'get');
    expect(resolve['x-price-usd']).toBe('0.01');
    expect(resolve.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }, { X402Payment: [] }, {}]);
    const ok = deref<ResponseObject>(resolve.responses['200']);
    expect(Object.keys(ok.headers ?? {})).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-RateLimit-Tier',
      'X-RateLimit-Tier-Limit',
      'X-RateLimit-Tier-Remaining',
      'X-RateLimit-Global-Used',
      'X-RateLimit-Global-Limit',
    ]);
    expect(doc.components.headers['X-RateLimit-Reset']?.schema).toEqual({ type: 'string', format: 'date-time' });

    const gas = operation('/api/gas', 'get');
    // Free: nothing is needed (the document's other operations say what they need, see test/unit/openapi-lint.test.ts).
    expect(gas.security).toEqual([]);
    // Counted but not priced (no default price given): a key, a session or nothing; no payment.
    expect(operation('/api/ens/bulk', 'post').security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }, {}]);
    expect(gas['x-price-usd']).toBeUndefined();
    expect(deref<ResponseObject>(gas.responses['200']).headers).toBeUndefined();

    expect(doc.components.securitySchemes).toMatchObject({
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      X402Payment: { type: 'apiKey', in: 'header', name: 'X-PAYMENT' },
    });
  });

  it('prices counted rows without a price at the configured default', () => {
    const priced = buildOpenApi({ table, schema, defaultPriceUsd: '0.005' });
    expect(priced.paths['/api/ens/bulk']?.post?.['x-price-usd']).toBe('0.005');
    expect(Object.keys(priced.paths['/api/ens/bulk']?.post?.responses ?? {})).toContain('402');
    expect(priced.paths['/api/gas']?.get?.['x-price-usd']).toBeUndefined();
  });

  it('refuses a row whose field the supergraph lacks, and a duplicate path and method', () => {
    const missing: RouteRow = { ...(rows[0] as RouteRow & { kind: 'operation' }), field: 'nope' as RootFieldName };
    expect(() => buildOpenApi({ table: { rows: [missing] }, schema })).toThrow(/Query\.nope/);
    expect(() => buildOpenApi({ table: { rows: [rows[0]!, rows[0]!] }, schema })).toThrow(/already/);
  });

  it('moves named zod schemas into components.schemas, renaming on a clash with a GraphQL type', () => {
    const named = z.string().meta({ id: 'EnsName', description: 'ENS name' });
    const row: RouteRow = {
      kind: 'operation',
      id: 'resolveNamed',
      method: 'GET',
      path: '/api/ens/named/{name}',
      tag: 'ENS',
      summary: 'named',
      tier: 'light',
      params: { path: z.object({ name: named }), query: z.object({ also: named.optional() }) },
      field: 'ensResolve' as RootFieldName,
    };
    try {
      const built = buildOpenApi({ table: { rows: [row] }, schema });
      const params = built.paths['/api/ens/named/{name}']?.get?.parameters as ParameterObject[];
      expect(params[0]?.schema).toEqual({ $ref: '#/components/schemas/EnsNameInput' });
      expect(built.components.schemas.EnsNameInput).toMatchObject({ type: 'string' });
      expect(built.components.schemas.EnsName).toMatchObject({ type: 'object' });
    } finally {
      z.globalRegistry.remove(named);
    }
  });

  it('renders as YAML without anchors and parses back to the same document', () => {
    const yaml = renderOpenApiYaml(doc);
    expect(yaml.startsWith('openapi: 3.1.0\n')).toBe(true);
    expect(yaml).not.toMatch(/[&*]a\d+\b/);
    expect(parseYaml(yaml) as OpenApiDocument).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(renderOpenApiYaml(buildOpenApi({ table, schema }))).toBe(yaml);
  });
});
