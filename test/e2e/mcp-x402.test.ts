import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { x402Client } from '@x402/core/client';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  type DiscoveryExtension,
  isValidServiceName,
  sanitizeTags,
  validateDiscoveryExtension,
} from '@x402/extensions/bazaar';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ONE_FREE_CALL, RECEIVER, usdcBalance } from '../helpers/x402-payer.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

const REDIS_URL = TEST_REDIS_URL;

/** One offer of GET /.well-known/x402: a priced route (path, method) or a priced tool (toolName). */
interface Offer {
  path?: string;
  method?: string;
  toolName?: string;
  serviceName: string;
  tags: string[];
  outputSchema: { input: Record<string, unknown> };
  extensions: { bazaar: DiscoveryExtension };
  [field: string]: unknown;
}
/** docs/api-contract.md#prices: ENS resolution costs $0.01 (10000 USDC units). */
const RESOLVE = { name: 'resolve_ens_name', arguments: { name: 'alice.eth' } };

async function connect(server: TestServer): Promise<Client> {
  const client = new Client({ name: 'paying-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

/**
 * tools/call as x402's MCP clients send it: the raw result, `_meta` carrying the payment (the SDK's plain callTool
 * reaches the offer too: test/e2e/mcp-stock-clients.test.ts).
 */
function callTool(client: Client, payment?: PaymentPayload): Promise<CallToolResult> {
  return client.request(
    {
      method: 'tools/call',
      params: { ...RESOLVE, ...(payment ? { _meta: { 'x402/payment': payment } } : {}) },
    },
    CallToolResultSchema,
  ) as Promise<CallToolResult>;
}

describe('x402 over MCP: an agent past its free quota pays a tool call (x402 MCP transport, v2)', () => {
  let first: TestServer;
  let second: TestServer;
  let agent: Client;
  const storePrefix = testKeyPrefix('mcp-x402');
  const payer = getDevAccounts()[5]!;

  beforeAll(async () => {
    // Two instances sharing one Redis: a payment spent on one is spent on both.
    const env = { ...ONE_FREE_CALL, REDIS_URL };
    [first, second] = await Promise.all([startTestServer(env, { storePrefix }), startTestServer(env, { storePrefix })]);
    agent = await connect(first);
    // The day's one free call.
    expect((await callTool(agent)).isError).toBeFalsy();
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([first?.close(), second?.close()]);
  });

  it('past the quota the tool result is an error whose structuredContent is the v2 PaymentRequired, also in content[0].text under x402/error', async () => {
    const result = await callTool(agent);
    expect(result.isError).toBe(true);
    const offer = result.structuredContent as unknown as PaymentRequired;
    expect(PaymentRequiredV2Schema.safeParse(offer).success).toBe(true);
    expect(offer).toMatchObject({
      x402Version: 2,
      resource: { url: 'mcp://tool/resolve_ens_name', mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '10000', asset: USDC_ON_BASE, payTo: RECEIVER }],
    });
    const text = JSON.parse((result.content[0] as { text: string }).text);
    expect(text).toEqual({ 'x402/error': { code: 402, message: expect.stringContaining('0.01 USD'), data: offer } });
  });

  it('the agent retries with a payment built by @x402/core/@x402/evm in _meta["x402/payment"]: the server verifies, runs, settles and answers the data with _meta["x402/payment-response"]; a replay on another instance is refused', async () => {
    const offered = (await callTool(agent)).structuredContent as unknown as PaymentRequired;
    const payments = new x402Client().register('eip155:8453', new ExactEvmScheme(payer));
    const payment = await payments.createPaymentPayload(offered);
    const before = await usdcBalance(first, RECEIVER);

    const started = performance.now();
    const paid = await callTool(agent, payment);
    const latencyMs = performance.now() - started;
    console.info(`paid MCP tool call (verify, run, settle on the embedded Base chain): ${latencyMs.toFixed(0)} ms`);

    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toEqual({
      name: 'alice.eth',
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    expect(paid._meta?.['x402/payment-response']).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: 'eip155:8453',
      payer: payer.address,
    });
    expect((await usdcBalance(first, RECEIVER)) - before).toBe(10000n);

    const other = await connect(second);
    try {
      const replay = (await other.request(
        { method: 'tools/call', params: { ...RESOLVE, _meta: { 'x402/payment': payment } } },
        CallToolResultSchema,
      )) as CallToolResult;
      expect(replay.isError).toBe(true);
      expect(replay.structuredContent).toMatchObject({ x402Version: 2, error: 'duplicate_settlement' });
    } finally {
      await other.close();
    }
  });

  it('a paid tools/call answers the same bytes through the direct path and through the SDK transport (each its own receipt)', async () => {
    const offered = (await callTool(agent)).structuredContent as unknown as PaymentRequired;
    const payments = new x402Client().register('eip155:8453', new ExactEvmScheme(payer));
    // src/http/mcp/direct-tool-call.ts answers a plain application/json; `charset=UTF-8` in capitals goes to the SDK.
    const paidCall = async (contentType: string) => {
      const payment = await payments.createPaymentPayload(offered);
      const res = await first.request({
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { ...RESOLVE, _meta: { 'x402/payment': payment } },
        }),
      });
      const body = await res.text();
      // The one part that differs between two paid calls: the settlement's transaction hash.
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        body: body.replace(/0x[0-9a-f]{64}/g, '0x…'),
      };
    };
    const direct = await paidCall('application/json');
    const throughSdk = await paidCall('application/json; charset=UTF-8');
    expect(direct).toEqual(throughSdk);
    expect(JSON.parse(direct.body).result._meta['x402/payment-response']).toMatchObject({ success: true });
  });

  it('a payment that is not valid (wrong signer, malformed) is refused as a PaymentRequired naming the reason, never a protocol error', async () => {
    const offered = (await callTool(agent)).structuredContent as unknown as PaymentRequired;
    const stranger = privateKeyToAccount(generatePrivateKey());
    const payment = await new x402Client()
      .register('eip155:8453', new ExactEvmScheme(stranger))
      .createPaymentPayload(offered);
    const forged = {
      ...payment,
      payload: {
        ...payment.payload,
        authorization: { ...(payment.payload.authorization as object), from: payer.address },
      },
    };
    const refused = await callTool(agent, forged as PaymentPayload);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'invalid_exact_evm_payload_signature' });

    const garbage = await callTool(agent, { x402Version: 2, nonsense: true } as unknown as PaymentPayload);
    expect(garbage.isError).toBe(true);
    expect(garbage.structuredContent).toMatchObject({ x402Version: 2, error: 'invalid_payload' });
  });

  it('every 402 offer carries the bazaar discovery extension: MCP (tool name, inputSchema, example), HTTP v2 PAYMENT-REQUIRED and the v1 body (method, parameters from the OpenAPI example), each valid against its own JSON Schema', async () => {
    const mcpOffer = (await callTool(agent)).structuredContent as unknown as PaymentRequired & {
      extensions: { bazaar: Parameters<typeof validateDiscoveryExtension>[0] };
    };
    const mcpBazaar = mcpOffer.extensions.bazaar;
    expect(mcpBazaar.info.input).toMatchObject({
      type: 'mcp',
      toolName: 'resolve_ens_name',
      transport: 'streamable-http',
      inputSchema: { type: 'object', required: ['name'] },
      example: { name: 'alice.eth' },
    });
    expect(mcpBazaar.info.output).toMatchObject({ type: 'json', example: { name: expect.any(String) } });
    expect(Object.keys(mcpBazaar.info.output?.example as object).sort()).toEqual(['address', 'name']);
    expect(validateDiscoveryExtension(mcpBazaar)).toEqual({ valid: true });
    expect(isValidServiceName(mcpOffer.resource.serviceName)).toBe(true);
    expect(sanitizeTags(mcpOffer.resource.tags)).toEqual(['ENS']);

    const res = await first.get('/api/ens/resolve/alice.eth');
    expect(res.status).toBe(402);
    const v2 = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString('utf8'));
    expect(v2.extensions.bazaar.info.input).toEqual({ type: 'http', method: 'GET', pathParams: { name: 'alice.eth' } });
    expect(validateDiscoveryExtension(v2.extensions.bazaar)).toEqual({ valid: true });
    const v1 = await res.json();
    expect(v1.accepts[0].outputSchema).toEqual({
      input: { type: 'http', method: 'GET', pathParams: { name: 'alice.eth' }, discoverable: true },
      output: v2.extensions.bazaar.info.output.example,
    });

    const bulk = await first.post('/api/ens/bulk', { names: ['alice.eth'] });
    expect(bulk.status).toBe(402);
    const bulkOffer = JSON.parse(Buffer.from(bulk.headers.get('payment-required')!, 'base64').toString('utf8'));
    expect(bulkOffer.extensions.bazaar.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json' });
    expect(validateDiscoveryExtension(bulkOffer.extensions.bazaar)).toEqual({ valid: true });

    const graphql = await first.post('/graphql', { query: '{ ensResolve(name: "alice.eth") { address } }' });
    expect(graphql.status).toBe(402);
    const graphqlOffer = JSON.parse(Buffer.from(graphql.headers.get('payment-required')!, 'base64').toString('utf8'));
    expect(graphqlOffer.extensions.bazaar.info.input).toMatchObject({
      type: 'http',
      method: 'POST',
      bodyType: 'json',
      body: { query: expect.stringContaining('ensResolve') },
    });
    expect(validateDiscoveryExtension(graphqlOffer.extensions.bazaar)).toEqual({ valid: true });
    expect((await graphql.json()).accepts[0].outputSchema.input).toMatchObject({ method: 'POST', discoverable: true });
  });

  /** GET /.well-known/x402, read once: its 105 offers are checked by the three tests below. */
  let listing: Promise<{ accepts: Offer[]; tools: Offer[] }> | undefined;
  const wellKnown = () => {
    listing ??= first.get('/.well-known/x402').then((res) => res.json());
    return listing;
  };

  it('each discovery schema of GET /.well-known/x402 is plain JSON Schema 2020-12: a strict validator compiles it', async () => {
    const doc = await wellKnown();
    // A strict validator knows every keyword and format (no OpenAPI `example`, no `int32`).
    const strict = addFormats(new Ajv2020({ strict: true, logger: false }));
    for (const offer of [...doc.accepts, ...doc.tools]) {
      expect(() => strict.compile(offer.extensions.bazaar.schema), offer.path ?? offer.toolName).not.toThrow();
    }
  });

  for (const part of ['accepts', 'tools'] as const) {
    it(`x402's own validator finds each discovery of GET /.well-known/x402 (${part}) valid, and prints no warning`, async () => {
      const offers = (await wellKnown())[part];
      // It builds a plain Ajv (no formats) per call: an OpenAPI format left in a schema is one warning per call.
      const warned = vi.spyOn(console, 'warn');
      try {
        for (const offer of offers) {
          expect(validateDiscoveryExtension(offer.extensions.bazaar), offer.path ?? offer.toolName).toEqual({
            valid: true,
          });
        }
        expect(warned.mock.calls).toEqual([]);
      } finally {
        warned.mockRestore();
      }
    });
  }

  it('GET /.well-known/x402 lists each priced route and each priced tool with the same discovery its 402 offers', async () => {
    const doc = await wellKnown();
    expect(doc.accepts.length).toBeGreaterThan(30);
    for (const offer of doc.accepts) {
      expect(offer.outputSchema.input).toMatchObject({ type: 'http', method: offer.method, discoverable: true });
      expect(isValidServiceName(offer.serviceName)).toBe(true);
      expect(sanitizeTags(offer.tags)).toEqual(offer.tags);
    }
    const resolve = doc.accepts.find((o) => o.path === '/api/ens/resolve/{name}')!;
    const res = await first.get('/api/ens/resolve/alice.eth');
    const offered = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString('utf8'));
    expect(resolve.extensions.bazaar).toEqual(offered.extensions.bazaar);

    const { tools } = (await agent.listTools()) as { tools: { name: string }[] };
    const priced = doc.tools.map((t) => t.toolName!);
    expect(priced).toContain('resolve_ens_name');
    // Write-tier tools are listed to sessions only; every other priced tool is in an anonymous tools/list.
    const sessionOnly = ['create_webhook', 'register_ccip_name', 'register_subname'];
    const unlisted = priced.filter((name: string) => !tools.some((t) => t.name === name));
    expect(unlisted.sort()).toEqual(sessionOnly);
    for (const tool of doc.tools) {
      expect(tool).toMatchObject({
        resource: `mcp://tool/${tool.toolName}`,
        network: 'eip155:8453',
        asset: USDC_ON_BASE,
      });
    }
    const mcpOffer = (await callTool(agent)).structuredContent as { extensions: { bazaar: unknown } };
    expect(doc.tools.find((t) => t.toolName === 'resolve_ens_name')!.extensions.bazaar).toEqual(
      mcpOffer.extensions.bazaar,
    );
  });

  it('instances keep no MCP session: a tools/call sent to another instance than the one that initialized is answered there', async () => {
    const res = await second.request({
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_gas_prices', arguments: {} },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const answer = await res.json();
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: expect.any(Object) } });
    expect(answer.result.isError).toBeFalsy();
  });
});
