import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { PaymentRequiredV1Schema, PaymentRequiredV2Schema } from '@x402/core/schemas';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { getAddress, type LocalAccount, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRequirementsSchema, x402ResponseSchema } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  type AuthorizationFields,
  decodeHeader,
  encodeHeader,
  ONE_FREE_CALL,
  RECEIVER,
  recordingFetch,
  usdcBalance,
  v1PaymentHeader,
} from '../helpers/x402-payer.js';

const REDIS_URL = TEST_REDIS_URL;
/** docs/api-contract.md#prices: checksum costs $0.005 (5000 USDC units); Light tier, computed locally. */
const CHECKSUM = '/api/address/checksum/0xd8da6bf26964af9d7eed9e10c5a1e8d5d5b5f6a8';
const CHECKSUMMED = getAddress('0xd8da6bf26964af9d7eed9e10c5a1e8d5d5b5f6a8');
const CHECKSUM_UNITS = 5000n;

/** An x402 v1 X-PAYMENT header for the checksum's price, signed by hand, to send exactly the flaw a test needs. */
function signedV1Payment(
  payer: LocalAccount,
  overrides: Partial<AuthorizationFields> = {},
  signer: LocalAccount = payer,
): Promise<string> {
  return v1PaymentHeader(payer, { value: CHECKSUM_UNITS, ...overrides }, signer);
}

describe('x402: pay per request (docs/api-contract.md#x402-payment)', () => {
  let server: TestServer;
  const payers = getDevAccounts();

  beforeAll(async () => {
    server = await startTestServer(ONE_FREE_CALL);
    // The day's one free call: from here on a priced route is past the free quota.
    expect((await server.get(CHECKSUM)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('past the free quota a priced route answers 402 with the x402 v1 body (error a string), priceUSD, recipient, the envelope and the v2 PAYMENT-REQUIRED header', async () => {
    const res = await server.get(CHECKSUM);
    expect(res.status).toBe(402);
    const body = await res.json();
    const resource = `${server.url}${CHECKSUM}`;
    expect(body).toEqual({
      // One of x402's machine reasons, which both x402 packages' schemas take; the sentence is in `message`.
      error: 'invalid_payment',
      code: 'PAYMENT_REQUIRED',
      message: expect.stringContaining('pay 0.005 USD per request with x402'),
      tier: 'light',
      limit: 1,
      retryAfter: expect.any(Number),
      priceUSD: '0.005',
      recipient: RECEIVER,
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: '5000',
          resource,
          description: 'EIP-55 checksummed form of an address',
          mimeType: 'application/json',
          payTo: RECEIVER,
          maxTimeoutSeconds: 60,
          asset: USDC_ON_BASE,
          extra: { name: 'USD Coin', version: '2' },
          // x402 bazaar discovery, v1's form (test/e2e/mcp-x402.test.ts checks its content).
          outputSchema: {
            input: { type: 'http', method: 'GET', pathParams: expect.any(Object), discoverable: true },
            output: expect.any(Object),
          },
        },
      ],
      timestamp: expect.any(String),
    });
    // x402's own schemas: v1's PaymentRequirementsResponse in both packages (the `x402` one takes only its machine
    // reasons as `error`), and the offer as a v1 client reads it.
    expect(PaymentRequiredV1Schema.safeParse(body).success).toBe(true);
    expect(x402ResponseSchema.safeParse(body).success).toBe(true);
    expect(PaymentRequirementsSchema.safeParse(body.accepts[0]).success).toBe(true);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');

    const v2 = PaymentRequiredV2Schema.parse(decodeHeader(res.headers.get('payment-required')));
    expect(v2).toMatchObject({
      x402Version: 2,
      resource: { url: resource, mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:8453',
          amount: '5000',
          asset: USDC_ON_BASE,
          payTo: RECEIVER,
          extra: { name: 'USD Coin', version: '2' },
        },
      ],
    });
    expect(v2.error).toContain('Daily limit exceeded');
  });

  it('x402-fetch (v1) with a viem local account pays a priced route and gets the data; the USDC moves on the chain', async () => {
    const payer = payers[1]!;
    const [payerBefore, receiverBefore] = await Promise.all([
      usdcBalance(server, payer.address),
      usdcBalance(server, RECEIVER),
    ]);
    const pay = wrapFetchV1(fetch, payer);
    const res = await pay(`${server.url}${CHECKSUM}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ address: CHECKSUMMED });
    const receipt = decodeHeader(res.headers.get('x-payment-response'));
    expect(receipt).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: 'base',
      payer: payer.address,
    });
    expect(await usdcBalance(server, payer.address)).toBe(payerBefore - CHECKSUM_UNITS);
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore + CHECKSUM_UNITS);
  });

  it('@x402/fetch (v2) with a viem local account pays a priced route and gets the data', async () => {
    const payer = payers[2]!;
    const before = await usdcBalance(server, payer.address);
    const pay = wrapFetchV2(fetch, new x402Client().register('eip155:8453', new ExactEvmScheme(payer)));
    const res = await pay(`${server.url}${CHECKSUM}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ address: CHECKSUMMED });
    expect(decodeHeader(res.headers.get('payment-response'))).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: payer.address,
    });
    expect(await usdcBalance(server, payer.address)).toBe(before - CHECKSUM_UNITS);
  });

  it('a paid request is not counted: paying does not touch the free quota and works past the daily limit again and again', async () => {
    const pay = wrapFetchV1(fetch, payers[3]!);
    for (let i = 0; i < 3; i++) expect((await pay(`${server.url}${CHECKSUM}`)).status).toBe(200);
    expect((await server.get(CHECKSUM)).status).toBe(402);
  });

  it('a paid POST /api/batch is settled once for the batch ($0.02), and its inner calls are served without being counted', async () => {
    const payer = payers[7]!;
    const before = await usdcBalance(server, payer.address);
    const pay = wrapFetchV1(fetch, payer);
    const res = await pay(`${server.url}/api/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        requests: [{ path: CHECKSUM }, { path: '/api/address/checksum/0x0000000000000000000000000000000000000001' }],
      }),
    });
    expect(res.status).toBe(200);
    const { results } = await res.json();
    expect(results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expect(decodeHeader(res.headers.get('x-payment-response'))).toMatchObject({ success: true, payer: payer.address });
    expect(await usdcBalance(server, payer.address)).toBe(before - 20_000n);
  });

  it('the same payment replayed is refused (v1 and v2), and nothing more is charged', async () => {
    const v1 = recordingFetch();
    expect((await wrapFetchV1(v1.fetch, payers[4]!)(`${server.url}${CHECKSUM}`)).status).toBe(200);
    const v1Payment = v1.sent.at(-1)!.get('x-payment')!;
    const v2 = recordingFetch();
    expect(
      (
        await wrapFetchV2(
          v2.fetch,
          new x402Client().register('eip155:8453', new ExactEvmScheme(payers[4]!)),
        )(`${server.url}${CHECKSUM}`)
      ).status,
    ).toBe(200);
    const v2Payment = v2.sent.at(-1)!.get('payment-signature')!;
    const before = await usdcBalance(server, payers[4]!.address);

    const replays: Record<string, string>[] = [
      { 'X-PAYMENT': v1Payment },
      { 'x-payment': v1Payment },
      { 'PAYMENT-SIGNATURE': v2Payment },
    ];
    for (const headers of replays) {
      const replay = await server.get(CHECKSUM, headers);
      expect(replay.status).toBe(402);
      const body = await replay.json();
      expect(body).toMatchObject({
        code: 'PAYMENT_REQUIRED',
        error: 'duplicate_settlement',
        message: expect.stringContaining('already used'),
      });
      expect(body).not.toHaveProperty('address');
    }
    expect(await usdcBalance(server, payers[4]!.address)).toBe(before);
  });

  it('wrong payTo, underpayment, expired validBefore and a bad signature are refused with a 402 that says why', async () => {
    const payer = payers[5]!;
    const stranger = privateKeyToAccount(generatePrivateKey());
    const now = BigInt(Math.floor(Date.now() / 1000));
    const cases: [string, string, string][] = [
      [
        'wrong payTo',
        await signedV1Payment(payer, { to: payers[0]!.address }),
        'invalid_exact_evm_payload_recipient_mismatch',
      ],
      [
        'underpayment',
        await signedV1Payment(payer, { value: CHECKSUM_UNITS - 1n }),
        'invalid_exact_evm_payload_authorization_value',
      ],
      [
        'expired',
        await signedV1Payment(payer, { validAfter: now - 600n, validBefore: now - 1n }),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      ['bad signature', await signedV1Payment(payer, {}, stranger), 'invalid_exact_evm_payload_signature'],
      ['not base64 JSON', 'not-a-payment', 'invalid_payload'],
    ];
    const before = await usdcBalance(server, payer.address);
    for (const [what, payment, reason] of cases) {
      const res = await server.get(CHECKSUM, { 'X-PAYMENT': payment });
      expect(res.status, what).toBe(402);
      const body = await res.json();
      expect(body, what).toMatchObject({
        error: reason,
        code: 'PAYMENT_REQUIRED',
        priceUSD: '0.005',
        x402Version: 1,
      });
      // The x402 package's response schema, whose `error` is one of x402's machine reasons.
      expect(x402ResponseSchema.safeParse(body).success, what).toBe(true);
      expect(PaymentRequiredV1Schema.safeParse(body).success, what).toBe(true);
      expect(body.message, what).toMatch(/^Payment refused: /);
      expect(decodeHeader(res.headers.get('payment-required')).error, what).toBe(reason);
    }
    expect(await usdcBalance(server, payer.address)).toBe(before);
  });

  it('a correctly signed v1 payment that overpays is accepted ("at least"); a v2 payment must match the amount exactly', async () => {
    const overpaid = await server.get(CHECKSUM, {
      'X-PAYMENT': await signedV1Payment(payers[6]!, { value: CHECKSUM_UNITS + 1n }),
    });
    expect(overpaid.status).toBe(200);
    // The same authorization content wrapped as v2 with a larger amount: refused, v2 is exact.
    const v1 = decodeHeader(await signedV1Payment(payers[6]!, { value: CHECKSUM_UNITS + 1n })) as { payload: unknown };
    const v2 = {
      x402Version: 2,
      accepted: {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '5001',
        asset: USDC_ON_BASE,
        payTo: RECEIVER,
        maxTimeoutSeconds: 60,
        extra: {},
      },
      payload: v1.payload,
    };
    const res = await server.get(CHECKSUM, { 'PAYMENT-SIGNATURE': encodeHeader(v2) });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ error: 'invalid_exact_evm_payload_authorization_value' });
  });

  it('a payer without USDC is refused by the facilitator with a 402, and is not served', async () => {
    const res = await wrapFetchV1(fetch, privateKeyToAccount(generatePrivateKey()))(`${server.url}${CHECKSUM}`);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      message: expect.stringContaining('facilitator refused'),
    });
  });

  it('routes that are not for sale keep the 429 past the daily limit; always-free routes ignore a payment header', async () => {
    // The session route is Auth tier: never sold per call.
    let res = await server.get('/api/auth/session');
    for (let i = 0; i < 3 && res.status === 200; i++) res = await server.get('/api/auth/session');
    expect(res.status).toBe(429);
    expect((await res.json()).code).toBe('RATE_LIMITED');
    const health = await server.get('/api/health', { 'X-PAYMENT': await signedV1Payment(payers[7]!) });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-payment-response')).toBeNull();
  });

  it('GET /.well-known/x402 lists every priced route with price, network and asset, passes the x402 schema, and sells no sign-in or key route', async () => {
    const doc = await (await server.get('/.well-known/x402')).json();
    expect(x402ResponseSchema.safeParse(doc).success).toBe(true);
    for (const offer of doc.accepts) expect(PaymentRequirementsSchema.safeParse(offer).success).toBe(true);
    const sold = ROUTE_TABLE.rows.filter((row) => row.tier !== 'free' && row.tier !== 'auth');
    expect(doc.accepts.map((o: { method: string; path: string }) => `${o.method} ${o.path}`).sort()).toEqual(
      sold.map((r) => `${r.method} ${r.path}`).sort(),
    );
    expect(doc).toMatchObject({
      network: 'base',
      chainId: 8453,
      asset: USDC_ON_BASE,
      receiver: RECEIVER,
      facilitator: server.localFacilitator!.url,
    });
    const price = (path: string) => doc.accepts.find((o: { path: string }) => o.path === path)?.priceUSD;
    expect(price('/api/abi/{address}')).toBe('0.02');
    expect(price('/api/active-users')).toBe('0.01');
    expect(price('/api/address/age/{address}')).toBe('0.01');
    expect(price('/api/address/batch/type')).toBe('0.02');
    expect(price('/api/address/batch/validate')).toBe('0.02');
    expect(price('/api/address/checksum/{address}')).toBe('0.005');
    expect(price('/api/address/code/{address}')).toBe('0.01');
    expect(price('/api/ens/resolve/{name}')).toBe('0.01');
    expect(price('/api/price/{symbol}')).toBe('0.005');
    expect(price('/api/farcaster/user/{fid}')).toBe('0.01');
    expect(price('/api/batch')).toBe('0.02');
    expect(price('/api/price/history/{symbol}')).toBe('0.05');
    expect(
      doc.accepts.find((o: { path: string }) => o.path.startsWith('/api/user/') || o.path.startsWith('/api/auth/')),
    ).toBeUndefined();
  });

  it('/api/sources/health shows the facilitator as a local source', async () => {
    const { sources } = await (await server.get('/api/sources/health')).json();
    expect(sources.find((s: { name: string }) => s.name === 'x402-facilitator')).toMatchObject({
      kind: 'payments',
      mode: 'local',
      state: 'up',
    });
  });
});

describe('credit purchase paid with x402 (docs/api-contract.md#states-and-transitions: credits)', () => {
  let server: TestServer;
  const payers = getDevAccounts();
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('POST /api/user/credits/{id}/purchase is paid with x402 for the package price and credits the key exactly once', async () => {
    const session = await signIn(server);
    const created = await server.post('/api/user/keys', { name: 'paid' }, bearer(session.token));
    const { id } = (await created.json()).key;
    const path = `/api/user/credits/${id}/purchase`;
    const unpaid = await server.post(path, { packageId: 'credits_100' }, bearer(session.token));
    expect(unpaid.status).toBe(402);
    expect(await unpaid.json()).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      priceUSD: '0.90',
      recipient: RECEIVER,
      packageId: 'credits_100',
      credits: 100,
      accepts: [{ maxAmountRequired: '900000', resource: `${server.url}${path}`, payTo: RECEIVER }],
    });

    const recorder = recordingFetch();
    const pay = wrapFetchV1(recorder.fetch, payers[8]!, parseUnits('1', 6));
    const init = {
      method: 'POST',
      headers: { ...bearer(session.token), 'content-type': 'application/json' },
      body: JSON.stringify({ packageId: 'credits_100' }),
    };
    const paid = await pay(`${server.url}${path}`, init);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({
      success: true,
      keyId: id,
      packageId: 'credits_100',
      creditsAdded: 100,
      balance: 100,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });

    const replay = await server.post(
      path,
      { packageId: 'credits_100' },
      { ...bearer(session.token), 'X-PAYMENT': recorder.sent.at(-1)!.get('x-payment')! },
    );
    expect(replay.status).toBe(402);
    expect((await replay.json()).error).toBe('duplicate_settlement');
    const { keys } = await (await server.get('/api/user/keys', bearer(session.token))).json();
    expect(keys.find((k: { id: string }) => k.id === id).credits).toBe(100);
  });
});

describe('x402 across instances and facilitator outages', () => {
  it('a payment spent on one instance is refused on every other (one Redis)', async () => {
    const storePrefix = testKeyPrefix('x402');
    const [a, b] = await Promise.all([
      startTestServer({ ...ONE_FREE_CALL, REDIS_URL }, { storePrefix }),
      startTestServer({ ...ONE_FREE_CALL, REDIS_URL }, { storePrefix }),
    ]);
    try {
      const payment = await signedV1Payment(getDevAccounts()[1]!);
      expect((await a.get(CHECKSUM, { 'X-PAYMENT': payment })).status).toBe(200);
      const replay = await b.get(CHECKSUM, { 'X-PAYMENT': payment });
      expect(replay.status).toBe(402);
      expect((await replay.json()).error).toBe('duplicate_settlement');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a facilitator that does not answer gives 503, no data and no charge (settle is never asked)', async () => {
    const asked: string[] = [];
    const silent: TcpServer = createTcpServer((socket) => {
      socket.on('data', (chunk) => asked.push(chunk.toString('utf8').split('\r\n')[0]!));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const { port } = silent.address() as AddressInfo;
    const server = await startTestServer({
      ...ONE_FREE_CALL,
      ...LIVE_SECRETS,
      X402_FACILITATOR_URL: `http://127.0.0.1:${port}`,
      UPSTREAM_TIMEOUT_MS: '300',
    });
    try {
      expect(server.localFacilitator).toBeUndefined();
      const res = await server.get(CHECKSUM, {
        'X-PAYMENT': await signedV1Payment(getDevAccounts()[1]!, { to: LIVE_SECRETS.X402_RECEIVER }),
      });
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toMatchObject({ error: true, code: 'SERVICE_UNAVAILABLE' });
      expect(body).not.toHaveProperty('address');
      expect(res.headers.get('x-payment-response')).toBeNull();
      expect(asked).toEqual(['POST /verify HTTP/1.1']);
      const { sources } = await (await server.get('/api/sources/health')).json();
      expect(sources.find((s: { name: string }) => s.name === 'x402-facilitator')).toMatchObject({
        mode: 'live',
        lastError: expect.any(String),
      });
    } finally {
      await server.close();
      silent.close();
    }
  });
});
