import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaymentRequiredV1Schema, PaymentRequiredV2Schema } from '@x402/core/schemas';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRequirementsSchema } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  decodeHeader,
  ONE_FREE_CALL,
  RECEIVER,
  recordingFetch,
  usdcBalance,
  v1PaymentHeader,
} from '../helpers/x402-payer.js';

const ADDRESS = '0xd8da6bf26964af9d7eed9e10c5a1e8d5d5b5f6a8';
const CHECKSUMMED = getAddress(ADDRESS);
/** Light, $0.005 on its REST row (/api/address/checksum/{address}); computed locally. */
const CHECKSUM = `{ addressChecksum(address: "${ADDRESS}") { address } }`;
/** A cheap field ($0.005) and an expensive one (addressTypes: Heavy, $0.02, one eth_call on the embedded chain). */
const MIXED = `{ addressChecksum(address: "${ADDRESS}") { address } addressTypes(addresses: ["${ADDRESS}"]) { count } }`;
/** The root field fails (INVALID_PARAMETER while the operation runs): no data at all. */
const FAILING = '{ addressChecksum(address: "not-an-address") { address } }';
/** One root field answers, the other (nullable) fails: data with errors. */
const PARTLY_FAILING = `{ addressChecksum(address: "${ADDRESS}") { address } addressAge(address: "not-an-address") { chain } }`;

/** A root field's price as its REST row states it: the one source of truth the /graphql price comes from. */
function rowPrice(field: string): string {
  const row = ROUTE_TABLE.rows.find((r) => r.kind === 'operation' && r.field === field);
  if (!row?.price) throw new Error(`no priced row runs ${field}`);
  return row.price;
}
const units = (usd: string): bigint => parseUnits(usd, 6);

const graphqlInit = (query: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ query }),
});

describe("x402 on /graphql: an operation past the free tier is sold at its heaviest root field's price", () => {
  let server: TestServer;
  let graphqlUrl: string;
  const payers = getDevAccounts();
  // A call with no payment or a payment header written by the test goes in process; x402 clients pay over a socket.
  const gql = (query: string, headers: Record<string, string> = {}) => server.post('/graphql', { query }, headers);

  beforeAll(async () => {
    server = await startTestServer(ONE_FREE_CALL);
    graphqlUrl = `${server.url}/graphql`;
    // The day's one free call: from here on every counted operation is past the free quota.
    expect((await gql(CHECKSUM)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the prices come from the REST rows that run the fields', () => {
    expect(rowPrice('addressChecksum')).toBe('0.005');
    expect(rowPrice('addressTypes')).toBe('0.02');
  });

  it('past the daily limit a plain POST /graphql answers 402 with the same x402 offer as REST: v1 body, priceUSD, recipient, v2 PAYMENT-REQUIRED header, resource = the /graphql URL', async () => {
    const res = await gql(CHECKSUM);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toEqual({
      // One of x402's machine reasons, which both x402 packages' schemas take; the sentence is in `message`.
      error: 'invalid_payment',
      code: 'PAYMENT_REQUIRED',
      message: expect.stringContaining('pay 0.005 USD per request with x402'),
      tier: 'light',
      limit: 1,
      retryAfter: expect.any(Number),
      priceUSD: rowPrice('addressChecksum'),
      recipient: RECEIVER,
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: String(units(rowPrice('addressChecksum'))),
          resource: graphqlUrl,
          description: expect.stringContaining('addressChecksum'),
          mimeType: 'application/json',
          payTo: RECEIVER,
          maxTimeoutSeconds: 60,
          asset: USDC_ON_BASE,
          extra: { name: 'USD Coin', version: '2' },
          // x402 bazaar discovery, v1's form: a POST of a JSON { query } (test/e2e/mcp-x402.test.ts checks it).
          outputSchema: {
            input: { type: 'http', method: 'POST', bodyType: 'json', body: expect.any(Object), discoverable: true },
            output: expect.any(Object),
          },
        },
      ],
      timestamp: expect.any(String),
    });
    // What x402 clients parse: x402's v1 body (error a string) and strict requirement schemas, nothing of Apollo's `{errors}`.
    expect(PaymentRequiredV1Schema.safeParse(body).success).toBe(true);
    expect(PaymentRequirementsSchema.safeParse(body.accepts[0]).success).toBe(true);
    expect(body).not.toHaveProperty('errors');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    const v2 = PaymentRequiredV2Schema.parse(decodeHeader(res.headers.get('payment-required')));
    expect(v2).toMatchObject({
      x402Version: 2,
      resource: { url: graphqlUrl, mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '5000', asset: USDC_ON_BASE, payTo: RECEIVER }],
    });
    expect(v2.error).toContain('Daily limit exceeded');
  });

  it('an operation mixing a cheap and an expensive root field is offered at the expensive one', async () => {
    const res = await gql(MIXED);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toMatchObject({
      priceUSD: rowPrice('addressTypes'),
      tier: 'heavy',
      accepts: [{ maxAmountRequired: '20000', resource: graphqlUrl }],
    });
    expect(decodeHeader(res.headers.get('payment-required'))).toMatchObject({ accepts: [{ amount: '20000' }] });
    // A fragment does not hide the expensive field.
    const viaFragment = await gql(
      `{ ...F } fragment F on Query { addressChecksum(address: "${ADDRESS}") { address } ... on Query { addressTypes(addresses: ["${ADDRESS}"]) { count } } }`,
    );
    expect(await viaFragment.json()).toMatchObject({ priceUSD: '0.02' });
  });

  it('a field several rows run is sold at the cheapest row running the same selection: ensProfile { name } as /api/ens/{name}, with the wallet as /api/profile/full', async () => {
    const plain = await gql('{ ensProfile(name: "alice.eth") { name } }');
    expect(plain.status).toBe(402);
    expect(await plain.json()).toMatchObject({
      priceUSD: '0.01',
      tier: 'medium',
      accepts: [{ maxAmountRequired: '10000', resource: graphqlUrl }],
    });
    const withWallet = await gql('{ ensProfile(name: "alice.eth") { name wallet { address } } }');
    expect(await withWallet.json()).toMatchObject({ priceUSD: '0.02', tier: 'heavy' });
  });

  it('x402-fetch (v1) pays an operation and gets its data; the receiver gets exactly the price', async () => {
    const payer = payers[1]!;
    const [payerBefore, receiverBefore] = await Promise.all([
      usdcBalance(server, payer.address),
      usdcBalance(server, RECEIVER),
    ]);
    const res = await wrapFetchV1(fetch, payer)(graphqlUrl, graphqlInit(CHECKSUM));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { addressChecksum: { address: CHECKSUMMED } } });
    expect(decodeHeader(res.headers.get('x-payment-response'))).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: 'base',
      payer: payer.address,
    });
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore + 5000n);
    expect(await usdcBalance(server, payer.address)).toBe(payerBefore - 5000n);
  });

  it('@x402/fetch (v2) pays an operation from the PAYMENT-REQUIRED header and gets its data', async () => {
    const payer = payers[2]!;
    const receiverBefore = await usdcBalance(server, RECEIVER);
    const pay = wrapFetchV2(fetch, new x402Client().register('eip155:8453', new ExactEvmScheme(payer)));
    const res = await pay(graphqlUrl, graphqlInit(CHECKSUM));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { addressChecksum: { address: CHECKSUMMED } } });
    expect(decodeHeader(res.headers.get('payment-response'))).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: payer.address,
    });
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore + 5000n);
  });

  it('an operation mixing a cheap and an expensive root field is paid at the expensive one; the cheap price is refused', async () => {
    const payer = payers[3]!;
    const receiverBefore = await usdcBalance(server, RECEIVER);
    const res = await wrapFetchV1(fetch, payer)(graphqlUrl, graphqlInit(MIXED));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { addressChecksum: { address: CHECKSUMMED }, addressTypes: { count: 1 } },
    });
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore + units(rowPrice('addressTypes')));

    const cheap = await gql(MIXED, {
      'X-PAYMENT': await v1PaymentHeader(payer, { value: units(rowPrice('addressChecksum')) }),
    });
    expect(cheap.status).toBe(402);
    const body = await cheap.json();
    expect(body).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      error: 'invalid_exact_evm_payload_authorization_value',
      priceUSD: '0.02',
    });
    expect(body).not.toHaveProperty('data');
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore + 20_000n);
  });

  it('a paid operation is not counted: it works past the daily limit again and again, and the next unpaid one still gets the offer', async () => {
    const pay = wrapFetchV1(fetch, payers[4]!);
    for (let i = 0; i < 3; i++) expect((await pay(graphqlUrl, graphqlInit(CHECKSUM))).status).toBe(200);
    expect((await gql(CHECKSUM)).status).toBe(402);
  });

  it('the same payment replayed is refused (v1 and v2) with a 402 and no data, and nothing more is charged', async () => {
    const payer = payers[5]!;
    const v1 = recordingFetch();
    expect((await wrapFetchV1(v1.fetch, payer)(graphqlUrl, graphqlInit(CHECKSUM))).status).toBe(200);
    const v1Payment = v1.sent.at(-1)!.get('x-payment')!;
    const v2 = recordingFetch();
    const payV2 = wrapFetchV2(v2.fetch, new x402Client().register('eip155:8453', new ExactEvmScheme(payer)));
    expect((await payV2(graphqlUrl, graphqlInit(CHECKSUM))).status).toBe(200);
    const v2Payment = v2.sent.at(-1)!.get('payment-signature')!;
    const [payerBefore, receiverBefore] = await Promise.all([
      usdcBalance(server, payer.address),
      usdcBalance(server, RECEIVER),
    ]);

    const replays: Record<string, string>[] = [{ 'X-PAYMENT': v1Payment }, { 'PAYMENT-SIGNATURE': v2Payment }];
    for (const headers of replays) {
      const replay = await gql(CHECKSUM, headers);
      expect(replay.status).toBe(402);
      const body = await replay.json();
      expect(body).toMatchObject({
        code: 'PAYMENT_REQUIRED',
        error: 'duplicate_settlement',
        message: expect.stringContaining('already used'),
      });
      expect(body).not.toHaveProperty('data');
      expect(replay.headers.get('x-payment-response')).toBeNull();
    }
    expect(await usdcBalance(server, payer.address)).toBe(payerBefore);
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore);
  });

  it('an operation whose root field fails is not settled: the errors come back, no receipt, no USDC moves', async () => {
    const payer = payers[6]!;
    const [payerBefore, receiverBefore] = await Promise.all([
      usdcBalance(server, payer.address),
      usdcBalance(server, RECEIVER),
    ]);
    const pay = wrapFetchV1(fetch, payer);

    const failed = await pay(graphqlUrl, graphqlInit(FAILING));
    expect(failed.status).toBe(200);
    const body = await failed.json();
    expect(body.data).toBeNull();
    expect(body.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(failed.headers.get('x-payment-response')).toBeNull();

    // Data with errors is not "the operation produced its data": not charged either.
    const partial = await pay(graphqlUrl, graphqlInit(PARTLY_FAILING));
    expect(partial.status).toBe(200);
    const partialBody = await partial.json();
    expect(partialBody.data).toEqual({ addressChecksum: { address: CHECKSUMMED }, addressAge: null });
    expect(partialBody.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(partial.headers.get('x-payment-response')).toBeNull();

    expect(await usdcBalance(server, payer.address)).toBe(payerBefore);
    expect(await usdcBalance(server, RECEIVER)).toBe(receiverBefore);
  });

  it('an operation with a field that is not sold per call (Auth tier) keeps the 429; one of free fields only is still answered', async () => {
    const res = await gql(`{ apiKeys { keys { id } } addressChecksum(address: "${ADDRESS}") { address } }`);
    expect(res.status).toBe(429);
    expect((await res.json()).errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    const free = await gql('{ health { status } }');
    expect(free.status).toBe(200);
  });
});

describe('x402 on /graphql with a facilitator that refuses to settle', () => {
  let server: TestServer;
  let facilitator: HttpServer;
  const asked: string[] = [];

  beforeAll(async () => {
    // Verifies every payment, settles none: what a payer whose USDC moved away between verify and settle gets.
    facilitator = createHttpServer((req, res) => {
      asked.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        const answer =
          req.url === '/verify'
            ? { isValid: true }
            : { success: false, errorReason: 'insufficient_funds', transaction: '', network: 'base' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => facilitator.listen(0, '127.0.0.1', () => resolve()));
    const { port } = facilitator.address() as AddressInfo;
    server = await startTestServer({
      ...ONE_FREE_CALL,
      ...LIVE_SECRETS,
      X402_FACILITATOR_URL: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await server?.close();
    facilitator?.close();
  });

  it('a settlement that fails sends no data: 402 with the reason, as on REST', async () => {
    asked.length = 0;
    const res = await server.post(
      '/graphql',
      { query: CHECKSUM },
      {
        'X-PAYMENT': await v1PaymentHeader(getDevAccounts()[1]!, { value: 5000n, to: LIVE_SECRETS.X402_RECEIVER }),
      },
    );
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toMatchObject({
      error: 'insufficient_funds',
      code: 'PAYMENT_REQUIRED',
      message: expect.stringContaining('settlement failed'),
    });
    expect(body).not.toHaveProperty('data');
    expect(JSON.stringify(body)).not.toContain(CHECKSUMMED);
    expect(res.headers.get('x-payment-response')).toBeNull();
    expect(asked).toEqual(['/verify', '/settle']);
  });

  it('an operation that fails is never sent to settlement', async () => {
    asked.length = 0;
    const res = await server.post(
      '/graphql',
      { query: FAILING },
      {
        'X-PAYMENT': await v1PaymentHeader(getDevAccounts()[2]!, { value: 5000n, to: LIVE_SECRETS.X402_RECEIVER }),
      },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(asked).toEqual(['/verify']);
  });
});
