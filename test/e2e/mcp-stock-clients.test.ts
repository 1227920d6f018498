import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { OpenApiDocument, OperationObject } from '../../rest-compat/openapi/openapi-types.js';
import { operationSchemas } from '../../rest-compat/openapi/operation-schemas.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

/** The stock SDK client, as an MCP host builds it: listTools, then the plain callTool (which checks outputSchema). */
async function connect(server: TestServer, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'stock-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  await client.listTools();
  return client;
}

/** Each tool's row: the tool is priced when its row is sold (neither free nor Auth tier). */
const rowOfTool = new Map(
  ROUTE_TABLE.rows.flatMap((r) => (r.kind === 'operation' && r.tool !== undefined ? [[r.tool, r] as const] : [])),
);
const isPriced = (tool: Tool): boolean => {
  const tier = rowOfTool.get(tool.name)?.tier;
  return tier !== undefined && tier !== 'free' && tier !== 'auth';
};

describe('MCP with stock clients: the SDK’s plain Client.callTool, Ajv strict, JSON-RPC errors', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  let token: string;
  let apiKey: string;
  let signedIn: Client;
  let tools: Tool[];

  /** A tool's arguments from the OpenAPI examples of its operation (the document the tools are built from). */
  function exampleArguments(tool: Tool): Record<string, unknown> {
    const row = rowOfTool.get(tool.name)!;
    const operation = document.paths[row.path]?.[row.method.toLowerCase() as 'get'] as OperationObject;
    const { path, query, body } = operationSchemas(document, operation).inputExample;
    return { ...path, ...query, ...body };
  }

  beforeAll(async () => {
    // A session gets two calls a day (an API key's creation, one tool call), so every later priced call is past its
    // quota; sign-in itself is anonymous.
    server = await startTestServer({
      SIWE_DAILY_LIMIT: '2',
      SIWE_PER_MINUTE_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000',
    });
    document = parseYaml(await (await server.get('/api/openapi.yaml')).text()) as OpenApiDocument;
    token = (await signIn(server)).token;
    const created = await server.post('/api/user/keys', { name: 'mcp-host' }, bearer(token));
    expect(created.status).toBe(200);
    apiKey = ((await created.json()) as { key: { key: string } }).key.key;
    signedIn = await connect(server, bearer(token));
    tools = (await signedIn.listTools()).tools;
    // The session's last free call of the day.
    const free = (await signedIn.callTool({ name: 'get_me', arguments: {} })) as CallToolResult;
    expect(free.isError).toBeFalsy();
  });
  afterAll(async () => {
    await signedIn?.close();
    await server?.close();
  });

  it('past the free quota every priced tool, called with the plain callTool, answers the x402 PaymentRequired instead of throwing -32602', async () => {
    const priced = tools.filter(isPriced);
    // Every GET/POST row outside the free and Auth tiers is a priced tool (the Write-tier ones listed to a session).
    const pricedRows = ROUTE_TABLE.rows.filter(
      (row) => row.kind === 'operation' && row.tool !== undefined && row.tier !== 'free' && row.tier !== 'auth',
    );
    expect(priced.map((tool) => tool.name).sort()).toEqual(
      pricedRows.map((row) => (row.kind === 'operation' ? row.tool : '')).sort(),
    );
    expect(priced.length).toBeGreaterThan(50);
    const offered: string[] = [];
    const refused: string[] = [];
    for (const tool of priced) {
      try {
        const result = (await signedIn.callTool({
          name: tool.name,
          arguments: exampleArguments(tool),
        })) as CallToolResult;
        const offer = result.structuredContent;
        if (result.isError && PaymentRequiredV2Schema.safeParse(offer).success) {
          expect(offer).toMatchObject({ x402Version: 2, resource: { url: `mcp://tool/${tool.name}` } });
          offered.push(tool.name);
        } else refused.push(`${tool.name}: ${JSON.stringify(result).slice(0, 200)}`);
      } catch (err) {
        refused.push(`${tool.name}: threw ${(err as Error).message.slice(0, 200)}`);
      }
    }
    expect(refused).toEqual([]);
    expect(offered.length).toBe(priced.length);
  });

  it("a priced tool's outputSchema admits its data and the PaymentRequired, and the data alone still validates", () => {
    const resolve = tools.find((t) => t.name === 'resolve_ens_name')!;
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(resolve.outputSchema!);
    expect(validate({ name: 'alice.eth', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })).toBe(true);
    expect(validate({ name: 'alice.eth' })).toBe(false);
    expect(validate({ x402Version: 2, resource: { url: 'mcp://tool/x' }, accepts: [] })).toBe(false);
  });

  it('every tool’s inputSchema and outputSchema compile under Ajv strict mode (JSON Schema 2020-12)', () => {
    const failed: string[] = [];
    // strictTypes and strictTuples only warn; strict mode's refusals (unknown keywords …) throw. One instance compiles
    // them all (the schemas carry no $id, so none replaces another), as a host validating every tool would.
    const ajv = new Ajv2020({ strict: true, logger: false });
    addFormats(ajv);
    for (const tool of tools) {
      for (const [which, schema] of [
        ['inputSchema', tool.inputSchema],
        ['outputSchema', tool.outputSchema],
      ] as const) {
        if (schema === undefined) continue;
        expect((schema as { $id?: unknown }).$id).toBeUndefined();
        try {
          ajv.compile(schema);
        } catch (err) {
          failed.push(`${tool.name} ${which}: ${(err as Error).message}`);
        }
      }
    }
    expect(failed).toEqual([]);
  });

  it('an unknown tool is a JSON-RPC -32602 whose message says its code once', async () => {
    const client = await connect(server);
    try {
      const thrown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((err: Error) => err);
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as Error & { code: number }).code).toBe(-32602);
      expect((thrown as Error).message).toBe('MCP error -32602: Unknown tool no_such_tool: tools/list names them');
    } finally {
      await client.close();
    }
  });

  it('a body that is not JSON is a JSON-RPC parse error (-32700), not the REST envelope', async () => {
    for (const body of ['{not json', '', '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"__proto__":{}}}']) {
      const res = await server.request({
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(await res.json(), body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
      });
    }
  });

  it('create_webhook takes an API key, as POST /api/webhooks does (the documented MCP client config sends one)', async () => {
    const client = await connect(server, { 'X-API-Key': apiKey });
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toContain('create_webhook');
      // Subname registration still needs a session: an API key does not name an owner there (its REST row's rule).
      expect(listed).not.toContain('register_subname');
      const result = (await client.callTool({
        name: 'create_webhook',
        arguments: { url: 'https://hooks.example.org/ens', events: ['ens.transfer'] },
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ url: 'https://hooks.example.org/ens', status: 'active' });
    } finally {
      await client.close();
    }
  });
});
