import { describe, expect, it } from 'vitest';
import {
  redactFailureMessage,
  SourceAlreadyRegisteredError,
  SourceHealthRegistry,
} from '../../src/sources/source-health.js';

describe('SourceHealthRegistry', () => {
  const at = Date.parse('2025-01-01T00:00:00Z');

  it('lists every registered source sorted by name, up before any call', () => {
    const registry = new SourceHealthRegistry({ now: () => at });
    registry.register({ name: 'defillama', kind: 'defi', mode: 'local' });
    registry.register({ name: 'coingecko', kind: 'prices', mode: 'live', description: 'token prices' });
    expect(registry.list()).toEqual([
      {
        name: 'coingecko',
        kind: 'prices',
        mode: 'live',
        description: 'token prices',
        state: 'up',
        lastLatencyMs: null,
        lastCheckedAt: null,
        lastError: null,
      },
      {
        name: 'defillama',
        kind: 'defi',
        mode: 'local',
        state: 'up',
        lastLatencyMs: null,
        lastCheckedAt: null,
        lastError: null,
      },
    ]);
  });

  it('is degraded after a failure or a stale serve, down while the breaker is open, up after a success', () => {
    const registry = new SourceHealthRegistry({ now: () => at });
    const monitor = registry.register({ name: 'coingecko', kind: 'prices', mode: 'live' });

    monitor.recordFailure({ latencyMs: 12.6, message: 'HTTP 503 on GET /api/v3/simple/price', kind: 'http_5xx' });
    expect(monitor.status()).toMatchObject({
      state: 'degraded',
      lastLatencyMs: 13,
      lastCheckedAt: '2025-01-01T00:00:00.000Z',
      lastError: 'HTTP 503 on GET /api/v3/simple/price',
    });

    monitor.recordBreakerState('open');
    expect(monitor.status().state).toBe('down');
    monitor.recordBreakerState('half-open');
    expect(monitor.status().state).toBe('degraded');

    monitor.recordSuccess({ latencyMs: 4 });
    monitor.recordBreakerState('closed');
    expect(monitor.status()).toMatchObject({ state: 'up', lastLatencyMs: 4, lastError: null });

    monitor.recordStaleServed();
    expect(monitor.status().state).toBe('degraded');
  });

  it('refuses a second source with the same name', () => {
    const registry = new SourceHealthRegistry();
    registry.register({ name: 'rpc:ethereum', kind: 'rpc', mode: 'local' });
    expect(() => registry.register({ name: 'rpc:ethereum', kind: 'rpc', mode: 'live' })).toThrow(
      SourceAlreadyRegisteredError,
    );
  });

  it('keeps query strings and credentials of URLs out of failure messages', () => {
    expect(redactFailureMessage('GET https://key:pw@api.x.io/v1/p?apikey=s3cret&a=1 failed')).toBe(
      'GET https://api.x.io/v1/p failed',
    );
    expect(redactFailureMessage('x'.repeat(500))).toHaveLength(200);
  });
});
