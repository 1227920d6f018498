import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

async function connect(server: TestServer, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  return client;
}

const textOf = (result: CallToolResult): string => (result.content[0] as { type: 'text'; text: string }).text;

/** A raw JSON-RPC POST to /mcp, as any HTTP client may send it (batches included). */
async function rpc(server: TestServer, body: unknown): Promise<{ status: number; bytes: number; json: unknown }> {
  const res = await server.request({
    method: 'POST',
    path: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), json: text === '' ? undefined : JSON.parse(text) };
}

const request = (id: number, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

/** Anonymous calls counted today for this test's client IP (GET /api/usage counts nothing itself). */
const usedToday = async (server: TestServer): Promise<number> =>
  ((await (await server.get('/api/usage')).json()) as { used: number }).used;

describe('MCP: every documented read operation is an agent tool on /mcp (Streamable HTTP)', () => {
  let server: TestServer;
  let client: Client;
  let tools: Tool[];
  beforeAll(async () => {
    server = await sharedTestServer();
    client = await connect(server);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
  });

  it('tools/list has one tool per GET/POST operation row outside the Auth and Write tiers, named after the row id in snake_case', () => {
    const expected = ROUTE_TABLE.rows
      .filter(
        (r) =>
          r.kind === 'operation' &&
          (r.method === 'GET' || r.method === 'POST') &&
          r.tier !== 'auth' &&
          r.tier !== 'write',
      )
      .map((r) => r.id.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
    expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
    expect(tools.map((t) => t.name)).toContain('resolve_ens_name');
    expect(tools.map((t) => t.name)).not.toContain('register_subname');
  });

  it("a tool carries the row's summary, its Zod params as inputSchema, its response schema as outputSchema, and hints", () => {
    const resolve = tools.find((t) => t.name === 'resolve_ens_name')!;
    expect(resolve.description).toMatch(/^Address of an ENS name/);
    expect(resolve.description).toContain('0.01 USD per call');
    expect(resolve.inputSchema).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', examples: ['alice.eth'] } },
    });
    // Its 200 body, or (past the free quota) x402's PaymentRequired: stock clients check error results against it too.
    expect(resolve.outputSchema).toMatchObject({
      type: 'object',
      anyOf: [{ type: 'object', required: ['name', 'address'] }, { $ref: '#/$defs/X402PaymentRequired' }],
    });
    expect(resolve.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    const bulk = tools.find((t) => t.name === 'post_ens_bulk')!;
    expect(bulk.inputSchema).toMatchObject({ required: ['names'], properties: { names: { type: 'array' } } });
  });

  it('tool schemas use the portable forms: a nullable value is anyOf [T, null], never a type list; no OpenAPI format', () => {
    // Strict MCP hosts (MCP Inspector's schema check, function-calling APIs) warn about `type: [T, "null"]`.
    const offending: string[] = [];
    let nullables = 0;
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) walk(item, `${where}/${i}`);
        return;
      }
      if (value === null || typeof value !== 'object') return;
      const schema = value as Record<string, unknown>;
      if (Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => branch?.type === 'null')) nullables += 1;
      if (Array.isArray(schema.type)) offending.push(`${where}: type ${JSON.stringify(schema.type)}`);
      if (['int32', 'int64', 'float', 'double'].includes(schema.format as string))
        offending.push(`${where}: format ${schema.format}`);
      if ('example' in schema && typeof schema.example !== 'object') offending.push(`${where}: example`);
      for (const [key, inner] of Object.entries(schema)) {
        if (!['enum', 'const', 'default', 'examples'].includes(key)) walk(inner, `${where}/${key}`);
      }
    };
    for (const tool of tools) {
      walk(tool.inputSchema, `${tool.name}.inputSchema`);
      walk(tool.outputSchema, `${tool.name}.outputSchema`);
    }
    expect(offending).toEqual([]);
    // Nullable values are there (233 were type lists), each said as anyOf [T, null].
    expect(nullables).toBeGreaterThan(200);
  });

  it('resolve_ens_name answers structuredContent and the same JSON as text', async () => {
    const result = (await client.callTool({
      name: 'resolve_ens_name',
      arguments: { name: 'Alice.ETH' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      name: 'alice.eth',
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const rest = await (await server.get('/api/ens/resolve/alice.eth')).json();
    expect(result.structuredContent).toEqual(rest);
  });

  it('get_token_prices_batch and get_farcaster_user answer what their REST paths answer', async () => {
    const prices = (await client.callTool({
      name: 'get_token_prices_batch',
      arguments: { symbols: 'ETH,BTC,USDC' },
    })) as CallToolResult;
    expect(prices.isError).toBeFalsy();
    expect(JSON.parse(textOf(prices))).toEqual(
      await (await server.get('/api/price/batch?symbols=ETH,BTC,USDC')).json(),
    );

    const user = (await client.callTool({
      name: 'get_farcaster_user',
      arguments: { identifier: 'dwr' },
    })) as CallToolResult;
    expect(user.isError).toBeFalsy();
    expect(user.structuredContent).toMatchObject({ fid: 3, username: 'dwr', displayName: 'Dan Romero' });
    const byFid = (await client.callTool({
      name: 'get_farcaster_user_by_fid',
      arguments: { fid: '3' },
    })) as CallToolResult;
    expect(byFid.structuredContent).toEqual(user.structuredContent);
  });

  it('a bad argument is a tool error naming the argument, not a protocol error', async () => {
    const bad = (await client.callTool({
      name: 'resolve_ens_name',
      arguments: { name: 'bad name.eth' },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.parse(textOf(bad))).toMatchObject({
      status: 400,
      code: 'INVALID_PARAMETER',
      message: expect.stringMatching(/^parameter name:/),
    });
    const unknown = (await client.callTool({
      name: 'resolve_ens_name',
      arguments: { nam: 'alice.eth' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('parameter nam: unknown');
    const missing = (await client.callTool({ name: 'resolve_ens_name', arguments: {} })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('parameter name:');
  });

  it('a bad address or ENS name is refused with the message its REST path gives', async () => {
    const cases = [
      { tool: 'get_ens_primary_name', args: { address: '0x123' }, path: '/api/ens/reverse/0x123' },
      { tool: 'resolve_ens_name', args: { name: 'bad name.eth' }, path: '/api/ens/resolve/bad%20name.eth' },
    ];
    const messages: string[] = [];
    for (const { tool, args, path } of cases) {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      const rest = await server.get(path);
      const restBody = (await rest.json()) as { code: string; message: string };
      expect(rest.status).toBe(400);
      expect(result.isError).toBe(true);
      expect(JSON.parse(textOf(result))).toMatchObject({ status: 400, code: restBody.code, message: restBody.message });
      messages.push(restBody.message);
    }
    expect(messages[0]).toBe('parameter address: must be 0x followed by 40 hex digits');
    expect(messages[1]).toMatch(/^parameter name: invalid ENS name \(ENSIP-15\)/);
  });

  it('a missing resource is a tool error with the 404 message', async () => {
    const result = (await client.callTool({
      name: 'resolve_ens_name',
      arguments: { name: 'nobody-here.eth' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'ENS name does not resolve: unregistered, expired or no address set',
    });
  });

  it('an unknown tool is a JSON-RPC invalid-params error', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool no_such_tool/);
  });

  it('resources are the OpenAPI document as served and the supergraph SDL', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['api://openapi.yaml', 'api://supergraph.graphql']);
    const openapi = await client.readResource({ uri: 'api://openapi.yaml' });
    expect((openapi.contents[0] as { text: string }).text).toBe(await (await server.get('/api/openapi.yaml')).text());
    const sdl = await client.readResource({ uri: 'api://supergraph.graphql' });
    expect((sdl.contents[0] as { text: string }).text).toContain('ensResolve');
  });

  it('a foreign Host or Origin is refused (DNS-rebinding protection); loopback is answered', async () => {
    // Sent in process, where the caller chooses the Host header (fetch does not let it).
    const post = async (headers: Record<string, string>) =>
      (
        await server.request({
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        })
      ).status;
    const port = new URL(server.url).port;
    expect(await post({ origin: 'http://evil.example' })).toBe(403);
    expect(await post({ host: `evil.example:${port}` })).toBe(403);
    expect(await post({ host: `localhost:${port}`, origin: 'http://localhost:1234' })).toBe(200);
    expect(await post({ host: `127.0.0.1:${port}` })).toBe(200);
  });

  it('arguments that are not an object, or named like Object.prototype members, are tool errors too', async () => {
    for (const args of [{ constructor: 'x' }, { toString: 1 }, { hasOwnProperty: 'name' }]) {
      const result = (await client.callTool({ name: 'resolve_ens_name', arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(JSON.parse(textOf(result))).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
    }
  });

  it('a body that is not JSON-RPC is answered without a 500: not JSON (or a __proto__ key) is a 400, not JSON a 415', async () => {
    const post = (body: string, type = 'application/json') =>
      server.request({
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': type, accept: 'application/json, text/event-stream' },
        body,
      });
    expect((await post('{not json')).status).toBe(400);
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{}}}')).status).toBe(400);
    expect((await post('x', 'text/plain')).status).toBe(415);
    for (const body of [
      '[]',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}',
      '7',
    ]) {
      expect((await post(body)).status, body).toBeLessThan(500);
    }
    expect((await server.get('/mcp')).status).toBe(405);
  });

  it('Write-tier tools (subname registration, creating a webhook) are listed to a SIWE session only, and refused without one', async () => {
    const writeTools = ['create_webhook', 'register_ccip_name', 'register_subname'];
    expect(tools.filter((t) => writeTools.includes(t.name))).toEqual([]);
    const session = await signIn(server);
    const signedIn = await connect(server, bearer(session.token));
    try {
      const listed = (await signedIn.listTools()).tools;
      expect(
        listed
          .map((t) => t.name)
          .filter((name) => !tools.some((t) => t.name === name))
          .sort(),
      ).toEqual(writeTools);
      const register = listed.find((t) => t.name === 'register_subname')!;
      expect(register.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(register.inputSchema).toMatchObject({ required: ['parent_name', 'label'] });
      const registered = (await signedIn.callTool({
        name: 'register_subname',
        arguments: { parent_name: 'offchain.eth', label: `mcp${Date.now()}` },
      })) as CallToolResult;
      expect(registered.isError).toBeFalsy();
      expect(registered.structuredContent).toMatchObject({ owner: session.address });
    } finally {
      await signedIn.close();
    }
    const anonymous = (await client.callTool({
      name: 'register_subname',
      arguments: { parent_name: 'offchain.eth', label: 'nobody' },
    })) as CallToolResult;
    expect(anonymous.isError).toBe(true);
    expect(JSON.parse(textOf(anonymous))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('tools/call params that are not an object, a name that is not a string, or arguments that are not an object are JSON-RPC invalid params (-32602) with a plain message', async () => {
    for (const params of [
      { name: 7 },
      { name: 'get_health', arguments: 5 },
      { name: 'get_health', arguments: [] },
      { name: 'get_health', arguments: null },
    ]) {
      const answer = await rpc(server, request(1, 'tools/call', params));
      expect(answer.status, JSON.stringify(params)).toBe(200);
      const { error } = answer.json as { error: { code: number; message: string } };
      expect(error.code, JSON.stringify(params)).toBe(-32602);
      expect(error.message).toMatch(/params\.(name|arguments) must be/);
      expect(error.message).not.toMatch(/invalid_type|"expected"/);
    }
  });

  it('a JSON-RPC batch of more than 20 messages is refused whole with a JSON-RPC error, nothing run or counted', async () => {
    const before = await usedToday(server);
    const hundredReads = Array.from({ length: 100 }, (_, i) =>
      request(i + 1, 'resources/read', { uri: 'api://openapi.yaml' }),
    );
    const answer = await rpc(server, hundredReads);
    console.log('100 × resources/read in one POST:', answer.status, answer.bytes, 'bytes answered');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    expect(answer.bytes).toBeLessThan(1000);
    expect(await usedToday(server)).toBe(before);
  });

  it("a batch's free members count against the caller like Light calls; a single message stays free", async () => {
    const before = await usedToday(server);
    const single = await rpc(server, request(1, 'resources/read', { uri: 'api://supergraph.graphql' }));
    expect(single.status).toBe(200);
    expect(await usedToday(server)).toBe(before);
    const batch = await rpc(server, [
      request(1, 'tools/list'),
      request(2, 'resources/list'),
      request(3, 'resources/read', { uri: 'api://supergraph.graphql' }),
      request(4, 'tools/list'),
    ]);
    expect(batch.status).toBe(200);
    const answers = batch.json as { id: number; result?: unknown }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4]);
    expect(answers.every((a) => a.result !== undefined)).toBe(true);
    expect(await usedToday(server)).toBe(before + 4);
  });

  it("a batch's document answers stop at 1 MiB: past it a member gets a JSON-RPC error; the rest are the served bytes", async () => {
    const served = await (await server.get('/api/openapi.yaml')).text();
    const fiveReads = Array.from({ length: 5 }, (_, i) =>
      request(i + 1, 'resources/read', { uri: 'api://openapi.yaml' }),
    );
    const answer = await rpc(server, fiveReads);
    const answers = answer.json as {
      id: number;
      result?: { contents: { uri: string; text: string }[] };
      error?: { code: number; data: { code: string } };
    }[];
    const read = answers.filter((a) => a.result);
    const refused = answers.filter((a) => a.error);
    const sentBytes = Buffer.byteLength(JSON.stringify(fiveReads));
    console.log(`5 × the OpenAPI document: ${read.length} answered, ${answer.bytes} bytes for ${sentBytes} sent`);
    expect(read.length).toBe(Math.floor((1024 * 1024) / Buffer.byteLength(JSON.stringify(served))));
    expect(refused.length).toBe(5 - read.length);
    for (const a of read)
      expect(a.result!.contents).toEqual([{ uri: 'api://openapi.yaml', mimeType: 'application/yaml', text: served }]);
    for (const a of refused) expect(a.error).toMatchObject({ code: -32000, data: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(answer.bytes).toBeLessThan(1024 * 1024 + 10_000);
  });
});
