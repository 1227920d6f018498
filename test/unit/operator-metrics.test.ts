import { describe, expect, it } from 'vitest';
import { createHttpMetrics } from '../../src/http/metrics.js';
import { OperationTallies } from '../../src/observability/operation-tallies.js';
import { ServiceTelemetry } from '../../src/observability/service-telemetry.js';
import { SourceClient, UpstreamError } from '../../src/sources/source-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { UpstreamTimeoutError, upstreamFailureKind } from '../../src/sources/upstream-failure.js';
import type { OutboxStats } from '../../src/store/webhook-store.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');

function setup(outbox: OutboxStats = { pending: 0, oldestPendingAt: null, disabledWebhooks: 0 }) {
  let now = T0;
  const registry = new SourceHealthRegistry({ now: () => now });
  const client = new SourceClient({
    policy: {
      name: 'flaky',
      kind: 'prices',
      mode: 'local',
      freshnessMs: 1000,
      retries: 0,
      breaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 },
    },
    registry,
    now: () => now,
  });
  const metrics = createHttpMetrics({
    telemetry: new ServiceTelemetry(),
    operations: new OperationTallies(['Prices']),
    sources: registry,
    outbox: { outboxStats: async () => outbox },
    now: () => now,
  });
  const scrape = async () => parsePrometheusText(await metrics.registry.metrics());
  return { client, scrape, advance: (ms: number) => void (now += ms) };
}

describe('source families: requests, errors by kind, breaker state, where answers came from', () => {
  it('a miss calls upstream, a fresh key is a hit, a failure serves stale, two failures open the breaker', async () => {
    const { client, scrape, advance } = setup();
    const labels = (more: Record<string, string> = {}) => ({ source: 'flaky', ...more });
    expect(await client.load('k', async () => 1)).toBe(1);
    expect(await client.load('k', async () => 2)).toBe(1);
    let families = await scrape();
    expect(sampleValue(families, 'upstream_requests_total', labels({ kind: 'prices' }))).toBe(1);
    expect(sampleValue(families, 'upstream_request_duration_seconds_count', labels())).toBe(1);
    expect(sampleValue(families, 'upstream_answers_total', labels({ result: 'miss' }))).toBe(1);
    expect(sampleValue(families, 'upstream_answers_total', labels({ result: 'hit' }))).toBe(1);
    expect(sampleValue(families, 'upstream_breaker_state', labels({ state: 'closed' }))).toBe(1);

    advance(2000);
    const fail = (status: number) => async () => {
      throw new UpstreamError(`HTTP ${status} on GET /x`, { status, retryable: false });
    };
    expect(await client.load('k', fail(503))).toBe(1);
    expect(await client.load('k', fail(429))).toBe(1);
    await expect(client.load('other', fail(503))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    families = await scrape();
    expect(sampleValue(families, 'upstream_errors_total', labels({ error: 'http_5xx' }))).toBe(1);
    expect(sampleValue(families, 'upstream_errors_total', labels({ error: 'rate_limited' }))).toBe(1);
    expect(sampleValue(families, 'upstream_errors_total', labels({ error: 'breaker_open' }))).toBe(1);
    // The open breaker refused the third call without calling: three answers, three attempts.
    expect(sampleValue(families, 'upstream_requests_total', labels({ kind: 'prices' }))).toBe(3);
    expect(sampleValue(families, 'upstream_answers_total', labels({ result: 'stale' }))).toBe(2);
    expect(sampleValue(families, 'upstream_breaker_state', labels({ state: 'open' }))).toBe(1);
    expect(sampleValue(families, 'upstream_breaker_state', labels({ state: 'closed' }))).toBe(0);
  });

  it('names each failure by a fixed kind, never by upstream text', () => {
    expect(upstreamFailureKind(new UpstreamTimeoutError(5000))).toBe('timeout');
    expect(upstreamFailureKind(new UpstreamError('HTTP 502', { status: 502, retryable: true }))).toBe('http_5xx');
    expect(upstreamFailureKind(new UpstreamError('HTTP 404', { status: 404, retryable: false }))).toBe('http_4xx');
    expect(upstreamFailureKind(new UpstreamError('network error', { retryable: true }))).toBe('network');
    expect(upstreamFailureKind(new UpstreamError('unexpected reply shape', { retryable: false }))).toBe(
      'invalid_reply',
    );
    expect(upstreamFailureKind(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('network');
    expect(upstreamFailureKind(new Error('who knows'))).toBe('other');
  });
});

describe('operation families: names are bounded to the published ones', () => {
  it('a published name is its own label, any other is "other", none is "anonymous"; error codes are kept only in UPPER_SNAKE_CASE', async () => {
    const ops = new OperationTallies(['Prices']);
    ops.record('graphql', ops.label('Prices'), 0.002, undefined);
    ops.record('graphql', ops.label('alice.eth'), 0.002, 'NOT_FOUND');
    ops.record('graphql', ops.label(undefined), 0.002, 'some upstream text');
    const metrics = createHttpMetrics({
      telemetry: new ServiceTelemetry(),
      operations: ops,
      sources: new SourceHealthRegistry(),
      outbox: { outboxStats: async () => ({ pending: 0, oldestPendingAt: null, disabledWebhooks: 0 }) },
    });
    const families = parsePrometheusText(await metrics.registry.metrics());
    const runs = families.get('graphql_operation_duration_seconds')!.samples.filter((s) => s.name.endsWith('_count'));
    expect(runs.map((s) => s.labels.operation).sort()).toEqual(['Prices', 'anonymous', 'other']);
    expect(sampleValue(families, 'graphql_operation_errors_total', { operation: 'other', code: 'NOT_FOUND' })).toBe(1);
    expect(sampleValue(families, 'graphql_operation_errors_total', { operation: 'anonymous', code: 'OTHER' })).toBe(1);
  });
});

describe('webhook outbox gauges', () => {
  it('are read from the store when scraped: pending, the oldest pending age in seconds, disabled webhooks', async () => {
    const { scrape } = setup({ pending: 7, oldestPendingAt: T0 - 90_000, disabledWebhooks: 2 });
    const families = await scrape();
    expect(sampleValue(families, 'webhook_outbox_pending')).toBe(7);
    expect(sampleValue(families, 'webhook_outbox_oldest_pending_age_seconds')).toBe(90);
    expect(sampleValue(families, 'webhooks_disabled')).toBe(2);
  });

  it('are left out of a scrape whose store does not answer, and the rest is still served', async () => {
    const metrics = createHttpMetrics({
      telemetry: new ServiceTelemetry(),
      operations: new OperationTallies([]),
      sources: new SourceHealthRegistry(),
      outbox: { outboxStats: () => Promise.reject(new Error('the store is down')) },
    });
    const families = parsePrometheusText(await metrics.registry.metrics());
    expect(families.get('webhook_outbox_pending')!.samples).toEqual([]);
    expect(families.get('http_requests_total')).toBeDefined();
  });
});
