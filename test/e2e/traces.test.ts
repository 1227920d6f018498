import { request as httpRequest } from 'node:http';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The one span named `name`; fails the test when there is none or several. */
function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  expect(
    found.map((s) => s.name),
    `spans named "${name}"`,
  ).toEqual([name]);
  return found[0]!;
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan): string => span.spanContext().spanId;
/**
 * The spans of `root`'s trace. Test files share a process (vitest isolate: false), so the exporter also sees spans of
 * other servers' background work (a webhook worker's store calls): those are other traces, never this request's.
 */
const traceOf = (spans: readonly ReadableSpan[], root: ReadableSpan): ReadableSpan[] =>
  spans.filter((s) => s.spanContext().traceId === root.spanContext().traceId);

describe('traces (docs/operators.md#traces): one REST call followed from HTTP to the upstream and the store', () => {
  const exporter = new InMemorySpanExporter();
  let server: TestServer;

  beforeAll(async () => {
    // 127.0.0.2 stands for a proxy in front (a distinct loopback source on Linux); callers reach us from 127.0.0.1.
    server = await startTestServer(
      { TRUST_PROXY: '127.0.0.2' },
      { spanProcessors: [new SimpleSpanProcessor(exporter)] },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('GET /api/price/ETH is one trace: HTTP span → GraphQL operation → loader batch → upstream call, and the store call under the HTTP span, with the request id', async () => {
    exporter.reset();
    const res = await server.get('/api/price/ETH', { 'x-request-id': 'trace-test-1' });
    expect(res.status).toBe(200);
    // The HTTP span ends in onResponse, just after the last byte is written.
    await expect
      .poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER), { timeout: 30_000 })
      .toBe(true);
    const http = only(exporter.getFinishedSpans(), 'GET /api/price/:symbol');
    // Every span below is looked for in the HTTP span's trace: finding it there is what "one trace" means.
    const spans = traceOf(exporter.getFinishedSpans(), http);
    expect(http.kind).toBe(SpanKind.SERVER);
    expect(http.attributes['request.id']).toBe('trace-test-1');
    expect(http.attributes['http.route']).toBe('/api/price/:symbol');
    expect(http.attributes['http.response.status_code']).toBe(200);
    expect(parentOf(http)).toBeUndefined();

    const operation = only(spans, 'graphql getTokenPrice');
    expect(operation.attributes['api.surface']).toBe('rest');
    expect(parentOf(operation)).toBe(idOf(http));

    const loader = only(spans, 'loader marketQuote');
    expect(loader.attributes['loader.batch_size']).toBe(1);
    expect(parentOf(loader)).toBe(idOf(operation));

    const upstream = only(spans, 'upstream coingecko');
    expect(upstream.attributes['upstream.kind']).toBe('prices');
    expect(parentOf(upstream)).toBe(idOf(loader));

    const store = only(spans, 'store consumeQuota');
    expect(store.attributes['db.operation.name']).toBe('consumeQuota');
    expect(parentOf(store)).toBe(idOf(http));
  });

  it('POST /graphql (a parsed body) keeps the same tree: the operation under the HTTP span, its loader batch under the operation', async () => {
    exporter.reset();
    const query = 'query Prices { tokenPrices(symbols: ["BTC"]) { symbol price } }';
    const res = await server.post('/graphql', { query }, { 'x-request-id': 'trace-test-2' });
    expect(res.status).toBe(200);
    await expect
      .poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER), { timeout: 30_000 })
      .toBe(true);
    const http = only(exporter.getFinishedSpans(), 'POST /graphql');
    const spans = traceOf(exporter.getFinishedSpans(), http);
    expect(http.attributes['request.id']).toBe('trace-test-2');
    const operation = only(spans, 'graphql Prices');
    expect(operation.attributes['api.surface']).toBe('graphql');
    expect(parentOf(operation)).toBe(idOf(http));
    const loader = only(spans, 'loader marketQuote');
    expect(parentOf(loader)).toBe(idOf(operation));
  });

  it("continues the trace a trusted proxy's request names in its W3C traceparent", async () => {
    exporter.reset();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const res = await getFrom('127.0.0.2', `${server.url}/api/gas`, { traceparent: `00-${traceId}-${parent}-01` });
    expect(res.status).toBe(200);
    await expect
      .poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER), { timeout: 30_000 })
      .toBe(true);

    const http = only(exporter.getFinishedSpans(), 'GET /api/gas');
    expect(http.spanContext().traceId).toBe(traceId);
    expect(parentOf(http)).toBe(parent);
  });

  it('a caller that is not trusted starts a trace of its own, sampled here even with flags 00, linked to its context without its tracestate', async () => {
    exporter.reset();
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    const parent = '10f067aa0ba902b8';
    const res = await server.get('/api/gas', {
      traceparent: `00-${traceId}-${parent}-00`,
      tracestate: 'steer=caller-chosen',
    });
    expect(res.status).toBe(200);
    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER)).toBe(true);

    const http = only(exporter.getFinishedSpans(), 'GET /api/gas');
    expect(http.spanContext().traceId).not.toBe(traceId);
    expect(http.parentSpanContext).toBeUndefined();
    expect(http.spanContext().traceState).toBeUndefined();
    expect(http.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId }))).toEqual([
      { traceId, spanId: parent },
    ]);
    expect(http.links[0]!.context.traceState).toBeUndefined();
  });
});

/** A GET sent from `localAddress` (node:http: fetch cannot choose its source address). */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers: { ...headers, connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
