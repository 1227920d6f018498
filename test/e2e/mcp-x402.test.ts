import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { x402Client } from '@x402/core/client';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/chain/dev-accounts.js';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ONE_FREE_CALL, RECEIVER, usdcBalance } from '../helpers/x402-payer.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** SPEC: ENS resolution costs $0.01 (10000 USDC units). */
const RESOLVE = { name: 'resolve_ens_name', arguments: { name: 'alice.eth' } };

async function connect(server: TestServer): Promise<Client> {
  const client = new Client({ name: 'paying-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

/**
 * tools/call as a paying agent sends it: the raw result (the SDK's callTool would check a PaymentRequired in
 * structuredContent against the tool's outputSchema, which only describes the data), `_meta` carrying the payment.
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
  const storePrefix = `test:mcp-x402:${randomUUID()}:`;
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
});
