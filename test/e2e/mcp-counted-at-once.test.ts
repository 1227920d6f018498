import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The day's anonymous limit of this file's server (SQLite: the store decides a count at once). */
const DAILY_LIMIT = 4;

const PRICE_CALL = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'get_token_price', arguments: { symbol: 'ETH' } },
};

/**
 * One tools/call as a stock client sends it: a plain `application/json` takes the direct path
 * (src/http/mcp/direct-tool-call.ts); `charset=UTF-8` in capitals goes through the SDK's transport and server, whose
 * admission always awaits the store.
 */
async function call(server: TestServer, contentType = 'application/json', credentials: Record<string, string> = {}) {
  const res = await server.request({
    method: 'POST',
    path: '/mcp',
    headers: {
      ...credentials,
      'content-type': contentType,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(PRICE_CALL),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: Object.fromEntries([...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id')),
    text,
    result: (JSON.parse(text) as { result: CallToolResult }).result,
  };
}

const usedToday = async (server: TestServer): Promise<number> =>
  ((await (await server.get('/api/usage')).json()) as { used: number }).used;

describe('MCP: a counted tool call whose body is cached is admitted at once (SQLite), counted exactly once', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: String(DAILY_LIMIT), ANONYMOUS_PER_MINUTE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('each call is counted once, the cached ones without awaiting the store; past the limit the refusal is the awaited path’s', async () => {
    const awaited = vi.spyOn(server.store, 'consumeQuota');
    const atOnce = vi.spyOn(server.store, 'consumeQuotaNow');
    try {
      // The first call renders the body: it is admitted on the awaited path.
      const first = await call(server);
      expect(first.result.isError).toBeFalsy();
      expect(first.result.structuredContent).toMatchObject({ symbol: 'ETH' });
      expect(awaited).toHaveBeenCalledTimes(1);
      expect(atOnce).not.toHaveBeenCalled();

      // The next call finds the body fresh (within its second): admitted at once, the awaited admission never runs.
      const second = await call(server);
      expect(awaited).toHaveBeenCalledTimes(1);
      expect(atOnce).toHaveBeenCalledTimes(1);
      expect(second).toEqual(first);

      // Credentials take the awaited path whatever is cached: an unknown API key is identified there, and refused.
      const withKey = await call(server, 'application/json', { 'x-api-key': `sk_live_${'0'.repeat(40)}` });
      expect(atOnce).toHaveBeenCalledTimes(1);
      expect(withKey.result.isError).toBe(true);
      expect(JSON.parse((withKey.result.content[0] as { text: string }).text)).toMatchObject({
        status: 401,
        code: 'INVALID_API_KEY',
      });
      for (let sent = 2; sent < DAILY_LIMIT; sent++) expect((await call(server)).result.isError).toBeFalsy();
      expect(await usedToday(server)).toBe(DAILY_LIMIT);

      // Past the limit: the x402 offer as a tool error, the same bytes and headers whichever path refuses it, nothing
      // counted.
      const refusedAtOnce = await call(server);
      const refusedAwaited = await call(server, 'application/json; charset=UTF-8');
      expect(refusedAtOnce.status).toBe(200);
      expect(refusedAtOnce.result.isError).toBe(true);
      expect(refusedAtOnce.result.structuredContent).toMatchObject({
        x402Version: 2,
        resource: { url: 'mcp://tool/get_token_price' },
      });
      expect(refusedAtOnce).toEqual(refusedAwaited);
      expect(await usedToday(server)).toBe(DAILY_LIMIT);
    } finally {
      awaited.mockRestore();
      atOnce.mockRestore();
    }
  });
});
