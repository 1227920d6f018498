import { describe, expect, it } from 'vitest';
import type { OpenApiDocument, OperationObject } from '../../rest-compat/openapi/openapi-types.js';
import { operationSchemas } from '../../rest-compat/openapi/operation-schemas.js';
import { schemaExample } from '../../rest-compat/openapi/schema-example.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { bazaarTags } from '../../src/access/bazaar-discovery.js';

const document = {
  components: {
    schemas: {
      Names: {
        type: 'object',
        required: ['names'],
        properties: { names: { type: 'array', items: { type: 'string' } } },
      },
      Result: {
        type: 'object',
        required: ['name', 'address'],
        properties: { name: { type: 'string', example: 'alice.eth' }, address: { type: ['string', 'null'] } },
      },
    },
  },
} as unknown as OpenApiDocument;

const operation = (o: Partial<OperationObject>): OperationObject =>
  ({ operationId: 'op', summary: 's', tags: [], responses: {}, 'x-tier': 'light', ...o }) as OperationObject;

describe('agent tools: names and schemas from the documented operation', () => {
  it('a tool is named as its row declares: every GET or POST row outside Auth, in snake_case, each name once', () => {
    const operations = ROUTE_TABLE.rows.filter((r) => r.kind === 'operation');
    const tools = operations.filter((r) => r.tool !== undefined);
    expect(tools.map((r) => r.id)).toEqual(
      operations.filter((r) => (r.method === 'GET' || r.method === 'POST') && r.tier !== 'auth').map((r) => r.id),
    );
    expect(new Set(tools.map((r) => r.tool)).size).toBe(tools.length);
    for (const { tool } of tools) expect(tool).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    const named = Object.fromEntries(tools.map((r) => [r.id, r.tool]));
    expect(named).toMatchObject({
      resolveEnsName: 'resolve_ens_name',
      getX402Configuration: 'get_x402_configuration',
      getTokenPrice: 'get_token_price',
      ccipResolvePost: 'ccip_resolve_post',
    });
  });

  it('path, query and body parameters become one input object, with the document examples, and the 200 body the output', () => {
    const schemas = operationSchemas(
      document,
      operation({
        parameters: [
          { name: 'parent', in: 'path', required: true, schema: { type: 'string' }, example: 'offchain.eth' },
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer' }, description: 'at most' },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/Names' }, example: { names: ['a.eth'] } },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Result' } } },
          },
        },
      }),
    );
    expect(schemas.inputSchema).toEqual({
      type: 'object',
      properties: {
        parent: { type: 'string', examples: ['offchain.eth'] },
        limit: { type: 'integer', description: 'at most' },
        names: { type: 'array', items: { type: 'string' } },
      },
      required: ['parent', 'names'],
      additionalProperties: false,
    });
    expect(schemas.argumentParts).toEqual({ parent: 'path', limit: 'query', names: 'body' });
    expect(schemas.inputExample).toEqual({ path: { parent: 'offchain.eth' }, query: {}, body: { names: ['a.eth'] } });
    expect(schemas.outputSchema).toMatchObject({ type: 'object', required: ['name', 'address'] });
    expect(schemaExample(schemas.responseSchema!)).toEqual({ name: 'alice.eth', address: 'string' });
  });

  it('an argument name used by two parts of the request stops the server at start', () => {
    expect(() =>
      operationSchemas(
        document,
        operation({
          parameters: [{ name: 'names', in: 'query', required: false, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Names' } } },
          },
        }),
      ),
    ).toThrow(/argument names is both query and body/);
  });

  it('a body that is not an object (a list) has no outputSchema: structuredContent is an object', () => {
    const list = operationSchemas(
      document,
      operation({
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: {} } } } },
        },
      }),
    );
    expect(list.outputSchema).toBeUndefined();
  });

  it('bazaar tags stay within the limits: at most 5, printable ASCII of 1 to 32 characters, no repeats', () => {
    expect(bazaarTags(['ENS', 'ENS', '', 'x'.repeat(33), 'Préférence', 'a', 'b', 'c', 'd', 'e'])).toEqual([
      'ENS',
      'a',
      'b',
      'c',
      'd',
    ]);
  });
});
