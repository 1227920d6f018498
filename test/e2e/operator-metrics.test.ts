import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type Family, parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { v1PaymentHeader } from '../helpers/x402-payer.js';

const TOKEN = 'operator-metrics-token-0123456789';
/** docs/api-contract.md#prices: checksum costs $0.005 (5000 USDC units); Light tier, computed locally. */
const CHECKSUM = '/api/address/checksum/0xd8da6bf26964af9d7eed9e10c5a1e8d5d5b5f6a8';
const CHECKSUM_UNITS = 5000n;

let server: TestServer;
let receiver: WebhookReceiver;
/** Each step calls as its own anonymous client (TRUST_PROXY=true): one free call a day each. */
let clients = 0;
const newClient = () => ({ 'x-forwarded-for': `198.51.100.${++clients}` });

async function scrape(): Promise<Map<string, Family>> {
  const res = await server.get('/metrics', { authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
}

/** How much a sample moved between two scrapes. */
const moved = (before: Map<string, Family>, after: Map<string, Family>, name: string, labels = {}) =>
  sampleValue(after, name, labels) - sampleValue(before, name, labels);

const graphql = (body: unknown, headers: Record<string, string>) => server.post('/graphql', body, headers);

/** The label names of a family's samples (bucket bounds aside). */
function labelNames(family: Family | undefined): string[] {
  const names = new Set<string>();
  for (const s of family?.samples ?? []) for (const k of Object.keys(s.labels)) if (k !== 'le') names.add(k);
  return [...names].sort();
}

beforeAll(async () => {
  [server, receiver] = await Promise.all([
    startTestServer({
      METRICS_TOKEN: TOKEN,
      TRUST_PROXY: 'true',
      ANONYMOUS_DAILY_LIMIT: '1',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000',
      WEBHOOK_POLL_MS: '100',
      // A failed delivery waits long before its retry: it stays pending while the test reads the outbox.
      WEBHOOK_RETRY_BASE_MS: '600000',
    }),
    startWebhookReceiver(),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.close(), receiver?.close()]);
});

describe('/metrics: the families an operator runs the service by (docs/operators.md#metrics)', () => {
  it('has every family, each with its labels, in a strictly valid text exposition', async () => {
    // One call that reaches a source, runs an operation and counts in the store, so that every labelled family has a series.
    expect((await server.get('/api/price/ETH', newClient())).status).toBe(200);
    const families = await scrape();
    const expected: Record<string, { type: string; labels: string[] }> = {
      upstream_requests_total: { type: 'counter', labels: ['kind', 'source'] },
      upstream_errors_total: { type: 'counter', labels: [] },
      upstream_request_duration_seconds: { type: 'histogram', labels: ['source'] },
      upstream_breaker_state: { type: 'gauge', labels: ['source', 'state'] },
      upstream_answers_total: { type: 'counter', labels: ['result', 'source'] },
      graphql_operation_duration_seconds: { type: 'histogram', labels: ['operation', 'surface'] },
      graphql_operation_errors_total: { type: 'counter', labels: [] },
      http_requests_total: { type: 'counter', labels: ['method', 'route', 'status'] },
      http_request_duration_seconds: { type: 'histogram', labels: ['method', 'route'] },
      http_error_responses_total: { type: 'counter', labels: [] },
      store_call_duration_seconds: { type: 'histogram', labels: ['call'] },
      store_calls_total: { type: 'counter', labels: ['call', 'outcome'] },
      webhook_outbox_pending: { type: 'gauge', labels: [] },
      webhook_outbox_oldest_pending_age_seconds: { type: 'gauge', labels: [] },
      webhooks_disabled: { type: 'gauge', labels: [] },
      webhook_delivery_attempts_total: { type: 'counter', labels: [] },
      quota_refusals_total: { type: 'counter', labels: [] },
      x402_offers_total: { type: 'counter', labels: [] },
      x402_settlements_total: { type: 'counter', labels: [] },
      x402_payment_failures_total: { type: 'counter', labels: [] },
      live_subscriptions_open: { type: 'gauge', labels: ['transport'] },
      live_events_delivered_total: { type: 'counter', labels: ['transport'] },
      live_subscriptions_dropped_total: { type: 'counter', labels: ['transport'] },
    };
    for (const [name, { type, labels }] of Object.entries(expected)) {
      expect(families.get(name)?.type, name).toBe(type);
      // Families whose series appear with their first event list no labels yet; the tests below move each.
      if (labels.length > 0) expect(labelNames(families.get(name)), name).toEqual(labels);
    }
    // Every source reports exactly one breaker state.
    const states = families.get('upstream_breaker_state')!.samples;
    const sources = new Set(states.map((s) => s.labels.source));
    expect(sources.has('coingecko')).toBe(true);
    for (const source of sources) {
      const mine = states.filter((s) => s.labels.source === source);
      expect(mine.map((s) => s.labels.state).sort(), source).toEqual(['closed', 'half-open', 'open']);
      expect(
        mine.reduce((sum, s) => sum + s.value, 0),
        source,
      ).toBe(1);
    }
  });

  it('a source counts its upstream calls, their latency, and where each answer came from', async () => {
    const before = await scrape();
    const query = 'query Prices { tokenPrices(symbols: ["BTC"]) { symbol price } }';
    expect((await graphql({ query }, newClient())).status).toBe(200);
    const between = await scrape();
    expect(moved(before, between, 'upstream_requests_total', { source: 'coingecko' })).toBeGreaterThanOrEqual(1);
    expect(moved(before, between, 'upstream_request_duration_seconds_count', { source: 'coingecko' })).toBe(
      moved(before, between, 'upstream_requests_total', { source: 'coingecko' }),
    );
    expect(moved(before, between, 'upstream_answers_total', { source: 'coingecko', result: 'miss' })).toBe(1);

    // The same price again within its freshness: the source's cache answers, no upstream call.
    expect((await graphql({ query }, newClient())).status).toBe(200);
    const after = await scrape();
    expect(moved(between, after, 'upstream_answers_total', { source: 'coingecko', result: 'hit' })).toBe(1);
    expect(moved(between, after, 'upstream_requests_total', { source: 'coingecko' })).toBe(0);
  });

  it('counts GraphQL operations by surface and published name (any other name is "other"), with errors by code', async () => {
    const before = await scrape();
    const count = (surface: string, operation: string) =>
      moved(before, after, 'graphql_operation_duration_seconds_count', { surface, operation });
    const errors = (surface: string, operation: string, code: string) =>
      moved(before, after, 'graphql_operation_errors_total', { surface, operation, code });

    await graphql({ query: 'query Prices { gasPrices { chain } }' }, newClient());
    await graphql({ query: 'query MyOwnName0xd8da6bf2 { gasPrices { chain } }' }, newClient());
    await graphql({ query: '{ gasPrices { chain } }' }, newClient());
    const invalid = await graphql(
      { query: 'query NameAndPrice { ensResolve(name: "not a name") { address } }', operationName: 'NameAndPrice' },
      newClient(),
    );
    expect(invalid.status).toBe(200);
    expect((await server.get('/api/gas', newClient())).status).toBe(200);
    const mcp = await server.post(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_gas_prices', arguments: {} } },
      { ...newClient(), accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    );
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(await mcp.json())).not.toContain('"isError":true');
    const after = await scrape();

    expect(count('graphql', 'Prices')).toBe(1);
    expect(count('graphql', 'other')).toBe(1);
    expect(count('graphql', 'anonymous')).toBe(1);
    expect(count('graphql', 'NameAndPrice')).toBe(1);
    expect(errors('graphql', 'NameAndPrice', 'INVALID_PARAMETER')).toBe(1);
    // A REST row runs its operation under the row's id (its first call here: nothing cached yet).
    expect(count('rest', 'getGasPrices')).toBe(1);
    // An MCP tool call runs its row's operation too.
    expect(count('mcp', 'getGasPrices')).toBe(1);
  });

  it('a REST row counts its error answers by code under its route pattern', async () => {
    const before = await scrape();
    const res = await server.get('/api/price/not-a-symbol!', newClient());
    expect(res.status).toBe(400);
    const after = await scrape();
    const labels = { method: 'GET', route: '/api/price/:symbol', code: 'INVALID_PARAMETER' };
    expect(moved(before, after, 'http_error_responses_total', labels)).toBe(1);
    expect(
      moved(before, after, 'http_requests_total', { method: 'GET', route: '/api/price/:symbol', status: '400' }),
    ).toBe(1);
  });

  it('times every store call by method and outcome', async () => {
    const before = await scrape();
    expect((await server.get('/api/price/ETH', newClient())).status).toBe(200);
    const after = await scrape();
    expect(moved(before, after, 'store_calls_total', { call: 'consumeQuota', outcome: 'ok' })).toBe(1);
    expect(moved(before, after, 'store_call_duration_seconds_count', { call: 'consumeQuota' })).toBe(1);
  });

  it('counts quota refusals by access mode and limit, x402 offers, settlements and failures by stage', async () => {
    const before = await scrape();
    const client = newClient();
    expect((await server.get(CHECKSUM, client)).status).toBe(200);
    // Past the day's one free call: the x402 offer.
    expect((await server.get(CHECKSUM, client)).status).toBe(402);
    const payment = await v1PaymentHeader(getDevAccounts()[3]!, { value: CHECKSUM_UNITS });
    expect((await server.get(CHECKSUM, { ...client, 'X-PAYMENT': payment })).status).toBe(200);
    // The same authorization again is a replay; a header that is no payment fails our own checks.
    expect((await server.get(CHECKSUM, { ...client, 'X-PAYMENT': payment })).status).toBe(402);
    expect((await server.get(CHECKSUM, { ...client, 'X-PAYMENT': 'bm90IGEgcGF5bWVudA==' })).status).toBe(402);
    const after = await scrape();

    expect(moved(before, after, 'quota_refusals_total', { mode: 'anonymous', limit: 'daily' })).toBe(1);
    expect(moved(before, after, 'x402_offers_total')).toBe(1);
    expect(moved(before, after, 'x402_settlements_total')).toBe(1);
    expect(moved(before, after, 'x402_payment_failures_total', { stage: 'replay' })).toBe(1);
    expect(moved(before, after, 'x402_payment_failures_total', { stage: 'check' })).toBe(1);
  });

  it("reports the webhook outbox: pending deliveries, the oldest one's age, attempts by result, disabled webhooks", async () => {
    // Each call of the sign-in from its own client: the anonymous limit here is one call a day.
    const { token } = await signIn({
      get: (path, headers = {}) => server.get(path, { ...newClient(), ...headers }),
      post: (path, body, headers = {}) => server.post(path, body, { ...newClient(), ...headers }),
    });
    const created = await server.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'] }, bearer(token));
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const before = await scrape();
    expect(sampleValue(before, 'webhook_outbox_pending')).toBe(0);
    expect(sampleValue(before, 'webhook_outbox_oldest_pending_age_seconds')).toBe(0);

    // A ping the receiver refuses: one failed attempt, then pending until its (distant) retry.
    receiver.fallbackStatus = 500;
    expect((await server.post(`/api/webhooks/${id}/test`, {}, bearer(token))).status).toBe(200);
    await expect
      .poll(async () => sampleValue(await scrape(), 'webhook_delivery_attempts_total', { result: 'failed' }))
      .toBe(sampleValue(before, 'webhook_delivery_attempts_total', { result: 'failed' }) + 1);
    const failed = await scrape();
    expect(sampleValue(failed, 'webhook_outbox_pending')).toBe(1);
    expect(sampleValue(failed, 'webhook_outbox_oldest_pending_age_seconds')).toBeGreaterThan(0);
    expect(sampleValue(failed, 'webhooks_disabled')).toBe(0);

    // One the receiver takes: delivered, and the outbox keeps only the first.
    receiver.fallbackStatus = 200;
    expect((await server.post(`/api/webhooks/${id}/test`, {}, bearer(token))).status).toBe(200);
    await expect
      .poll(async () => moved(before, await scrape(), 'webhook_delivery_attempts_total', { result: 'delivered' }))
      .toBe(1);
    expect(sampleValue(await scrape(), 'webhook_outbox_pending')).toBe(1);
  });

  it('no label value is an address, a name, a key or a token', async () => {
    const families = await scrape();
    const values = [...families.values()].flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
    expect(values.length).toBeGreaterThan(100);
    for (const value of values) {
      expect(value).not.toMatch(/0x[0-9a-f]{6,}/i);
      expect(value).not.toMatch(/\.eth\b/);
      expect(value).not.toContain(TOKEN);
      expect(value).not.toMatch(/^198\.51\.100\./);
    }
  });
});
