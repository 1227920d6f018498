import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { x402Client as x402CoreClient } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { erc20Abi, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { TEST_REDIS_URL } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  decodeHeader,
  encodeHeader,
  ONE_FREE_CALL,
  recordingFetch,
  signedAuthorization,
  v1PaymentHeader,
} from '../helpers/x402-payer.js';

/** docs/api-contract.md#prices: the checksum costs $0.005, ENS resolution $0.01. */
const CHECKSUM = '/api/address/checksum/0xd8da6bf26964af9d7eed9e10c5a1e8d5d5b5f6a8';
const RESOLVE = { name: 'resolve_ens_name', arguments: { name: 'alice.eth' } };
const HOUR_MS = 3_600_000;

const payWithDefaults = (payer: LocalAccount, fetcher: typeof fetch = fetch) =>
  wrapFetchWithPayment(fetcher, new x402Client().register('eip155:8453', new ExactEvmScheme(payer)));

async function connect(server: TestServer): Promise<Client> {
  const client = new Client({ name: 'paying-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

function callTool(client: Client, payment?: PaymentPayload): Promise<CallToolResult> {
  return client.request(
    { method: 'tools/call', params: { ...RESOLVE, ...(payment ? { _meta: { 'x402/payment': payment } } : {}) } },
    CallToolResultSchema,
  ) as Promise<CallToolResult>;
}

/** Gives `to` USDC on the embedded Base chain, from a development account that holds test USDC. */
async function fundWithUsdc(server: TestServer, to: `0x${string}`, units: bigint): Promise<void> {
  const { wallet, client } = localChainClients(
    { rpcUrl: server.localFacilitator!.chain.rpcUrl, chainId: 8453 },
    getDevAccounts()[8]!,
  );
  const hash = await wallet.writeContract({
    address: USDC_ON_BASE,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, units],
  });
  await client.waitForTransactionReceipt({ hash });
}

describe('x402 on a freshly started embedded server whose chain snapshot is an hour old (issue 31 item 3)', () => {
  let server: TestServer;
  let agent: Client;

  beforeAll(async () => {
    // An hour on: the snapshot the build wrote (and its latest block's time) is an hour old when the server starts.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + HOUR_MS);
    server = await startTestServer(ONE_FREE_CALL);
    agent = await connect(server);
    // The caller's one free call of the day: past it, REST routes and MCP tools are for sale.
    expect((await server.get(CHECKSUM)).status).toBe(200);
  });
  afterAll(async () => {
    await agent?.close();
    await server?.close();
    vi.useRealTimers();
  });

  it("the embedded chains' latest blocks carry wall time, not the snapshot's", async () => {
    for (const rpcUrl of [server.localChain!.rpcUrl, server.localFacilitator!.chain.rpcUrl]) {
      const { client } = localChainClients(rpcUrl);
      const latest = await client.getBlock({ blockTag: 'latest' });
      expect(Number(latest.timestamp)).toBeGreaterThan(Date.now() / 1000 - 60);
    }
  });

  it('@x402/fetch at its defaults (v2) pays over HTTP and gets the data', async () => {
    const payer = getDevAccounts()[2]!;
    const res = await payWithDefaults(payer)(`${server.url}${CHECKSUM}`);
    expect(res.status).toBe(200);
    expect(decodeHeader(res.headers.get('payment-response'))).toMatchObject({ success: true, payer: payer.address });
  });

  it('x402-fetch at its defaults (v1, validAfter = now − 600 s) pays over HTTP and gets the data', async () => {
    const payer = getDevAccounts()[4]!;
    const res = await wrapFetchV1(fetch, payer)(`${server.url}${CHECKSUM}`);
    expect(res.status).toBe(200);
    expect(decodeHeader(res.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
  });

  it('after twenty minutes in which the idle Base chain mined nothing, a payment dated now − 600 s still pays', async () => {
    vi.setSystemTime(Date.now() + 20 * 60_000);
    const res = await wrapFetchV1(fetch, getDevAccounts()[7]!)(`${server.url}${CHECKSUM}`);
    expect(res.status).toBe(200);
  });

  it('a v2 payment dated validAfter = now − 600 s pays over HTTP (PAYMENT-SIGNATURE) and over MCP (_meta)', async () => {
    const offered = (await callTool(agent)).structuredContent as unknown as PaymentRequired;
    const payer = getDevAccounts()[3]!;
    const tenMinutesAgo = BigInt(Math.floor(Date.now() / 1000) - 600);
    const v2Payment = async (accepted: PaymentRequired['accepts'][number]) => ({
      x402Version: 2,
      accepted,
      payload: await signedAuthorization(payer, { value: BigInt(accepted.amount), validAfter: tenMinutesAgo }),
    });
    const paid = await callTool(agent, (await v2Payment(offered.accepts[0]!)) as unknown as PaymentPayload);
    expect(paid.isError).toBeFalsy();
    expect(paid._meta?.['x402/payment-response']).toMatchObject({ success: true, network: 'eip155:8453' });

    const offer = decodeHeader(
      (await server.get(CHECKSUM)).headers.get('payment-required'),
    ) as unknown as PaymentRequired;
    const res = await server.get(CHECKSUM, { 'PAYMENT-SIGNATURE': encodeHeader(await v2Payment(offer.accepts[0]!)) });
    expect(res.status).toBe(200);
  });
});

describe.each<{ store: string; env: Record<string, string> }>([
  { store: 'SQLite', env: {} },
  { store: 'Redis', env: { REDIS_URL: TEST_REDIS_URL } },
])('a payment refused before settlement leaves its authorization usable ($store store)', ({ env }) => {
  let server: TestServer;
  let agent: Client;

  beforeAll(async () => {
    server = await startTestServer({ ...ONE_FREE_CALL, ...env });
    agent = await connect(server);
    expect((await server.get(CHECKSUM)).status).toBe(200);
  });
  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  it('over HTTP: refused by the facilitator (no USDC), the same PAYMENT-SIGNATURE pays once the payer holds USDC; only then is it spent', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const { fetch: recording, sent } = recordingFetch();
    const refused = await payWithDefaults(payer, recording)(`${server.url}${CHECKSUM}`);
    expect(refused.status).toBe(402);
    expect((await refused.json()).message).toContain('facilitator refused');
    const payment = sent.at(-1)!.get('payment-signature')!;
    expect(payment).toBeTruthy();

    await fundWithUsdc(server, payer.address, 1_000_000n);
    const retried = await server.get(CHECKSUM, { 'PAYMENT-SIGNATURE': payment });
    expect(retried.status).toBe(200);
    const replayed = await server.get(CHECKSUM, { 'PAYMENT-SIGNATURE': payment });
    expect(replayed.status).toBe(402);
    expect((await replayed.json()).error).toBe('duplicate_settlement');
  });

  it('over MCP: a payment refused by the facilitator is taken when sent again after the payer was funded', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const offered = (await callTool(agent)).structuredContent as unknown as PaymentRequired;
    const payment = await new x402CoreClient()
      .register('eip155:8453', new ExactEvmScheme(payer))
      .createPaymentPayload(offered);
    const refused = await callTool(agent, payment);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).not.toMatchObject({ error: 'duplicate_settlement' });

    await fundWithUsdc(server, payer.address, 1_000_000n);
    const paid = await callTool(agent, payment);
    expect(paid.isError).toBeFalsy();
    expect(paid._meta?.['x402/payment-response']).toMatchObject({ success: true, payer: payer.address });
  });

  it('a paid call whose answer is an error is not settled, and its payment pays the next call', async () => {
    const payer = getDevAccounts()[6]!;
    const payment = await v1PaymentHeader(payer, { value: 10_000n });
    const missing = await server.get('/api/ens/resolve/nobody-has-this-name.eth', { 'X-PAYMENT': payment });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-payment-response')).toBeNull();
    const paid = await server.get('/api/ens/resolve/alice.eth', { 'X-PAYMENT': payment });
    expect(paid.status).toBe(200);
    expect(decodeHeader(paid.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
  });
});
