import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * A single tools/call is answered by src/http/mcp/direct-tool-call.ts; the same message with a Content-Type the
 * direct path leaves to the SDK (`charset=UTF-8` spelt in capitals, which the SDK accepts) goes through the SDK's
 * server and transport. Both must answer the same bytes.
 */
async function post(server: TestServer, body: unknown, contentType: string) {
  const res = await server.request({
    method: 'POST',
    path: '/mcp',
    headers: {
      'content-type': contentType,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
    // An error envelope's timestamp is the one part of an answer that differs from one call to the next.
    body: (await res.text()).replace(/\\"timestamp\\":\\"[^\\]+\\"/, '\\"timestamp\\":\\"…\\"'),
  };
}

const toolCall = (id: number | string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

describe('MCP: a single tools/call answers the bytes the SDK transport answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });

  it.each([
    ['a result', 1, { name: 'resolve_ens_name', arguments: { name: 'alice.eth' } }],
    ['a result, string id', 'call-7', { name: 'get_token_price', arguments: { symbol: 'ETH' } }],
    ['a tool error (bad argument)', 2, { name: 'resolve_ens_name', arguments: { name: 'bad name.eth' } }],
    ['a tool error (not found)', 3, { name: 'resolve_ens_name', arguments: { name: 'nobody-here.eth' } }],
    ['a tool without arguments', 4, { name: 'get_gas_prices' }],
  ])('%s', async (_, id, params) => {
    const direct = await post(server, toolCall(id, params), 'application/json');
    const throughSdk = await post(server, toolCall(id, params), 'application/json; charset=UTF-8');
    expect(direct).toEqual(throughSdk);
    expect(direct.status).toBe(200);
    expect(direct.contentType).toBe('application/json; charset=utf-8');
    expect(direct.cacheControl).toBe('no-store');
    expect(JSON.parse(direct.body)).toMatchObject({ jsonrpc: '2.0', id, result: { content: [{ type: 'text' }] } });
  });

  it('an unknown tool, a batch or a message with extra members is still answered by the SDK, as before', async () => {
    const unknown = await post(server, toolCall(5, { name: 'no_such_tool', arguments: {} }), 'application/json');
    expect(JSON.parse(unknown.body)).toMatchObject({ id: 5, error: { code: -32602 } });
    const extra = await post(server, { ...toolCall(6, { name: 'get_health' }), extra: 1 }, 'application/json');
    expect(extra.status).toBe(400);
    expect(JSON.parse(extra.body)).toMatchObject({ error: { code: -32700 } });
  });
});
