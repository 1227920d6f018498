import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createHttpMetrics, registerMetrics } from '../../src/http/metrics.js';

/** The sample lines of one metric name, as `labels -> value` (labels exactly as written). */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
    if (match && match[1] === name) out.set(match[2] ?? '', Number(match[3]));
  }
  return out;
}

/** The value of one sample, found by its labels in the order they are written. */
function sample(text: string, name: string, labels: string): number | undefined {
  return samples(text, name).get(labels);
}

const BUCKETS = ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5'];

describe('request counting', () => {
  it('counts requests by method, route and status', async () => {
    const { registry, tallies } = createHttpMetrics();
    tallies.record('GET', '/a', 200, 0.01);
    tallies.record('GET', '/a', 200, 0.02);
    tallies.record('GET', '/a', 503, 0.03);
    tallies.record('POST', '/a', 200, 0.01);

    const text = await registry.metrics();

    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('http_requests_total{method="GET",route="/a",status="200"} 2\n');
    expect(text).toContain('http_requests_total{method="GET",route="/a",status="503"} 1\n');
    expect(text).toContain('http_requests_total{method="POST",route="/a",status="200"} 1\n');
    expect(samples(text, 'http_requests_total').size).toBe(3);
  });

  it('serves the same counts on every scrape, not counts added up twice', async () => {
    const { registry, tallies } = createHttpMetrics();
    tallies.record('GET', '/a', 200, 0.01);
    await registry.metrics();
    tallies.record('GET', '/a', 200, 0.01);

    const text = await registry.metrics();

    expect(sample(text, 'http_requests_total', '{method="GET",route="/a",status="200"}')).toBe(2);
  });

  it('writes cumulative duration buckets: a 3 ms request counts from le="0.005" up', async () => {
    const { registry, tallies } = createHttpMetrics();
    tallies.record('GET', '/a', 200, 0.003);

    const text = await registry.metrics();
    const bucket = (le: string) =>
      sample(text, 'http_request_duration_seconds_bucket', `{method="GET",route="/a",le="${le}"}`);

    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(bucket('0.001')).toBe(0);
    expect(bucket('0.0025')).toBe(0);
    for (const le of BUCKETS.slice(2)) expect(bucket(le), `le="${le}"`).toBe(1);
    expect(bucket('+Inf')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_sum', '{method="GET",route="/a"}')).toBe(0.003);
    expect(sample(text, 'http_request_duration_seconds_count', '{method="GET",route="/a"}')).toBe(1);
  });

  it('adds several observations up in the buckets, the sum and the count', async () => {
    const { registry, tallies } = createHttpMetrics();
    // An observation equal to a bound belongs to that bucket (le is "less than or equal").
    for (const seconds of [0.0005, 0.005, 0.2, 7]) tallies.record('GET', '/a', 200, seconds);

    const text = await registry.metrics();
    const bucket = (le: string) =>
      sample(text, 'http_request_duration_seconds_bucket', `{method="GET",route="/a",le="${le}"}`);

    expect(bucket('0.001')).toBe(1);
    expect(bucket('0.0025')).toBe(1);
    expect(bucket('0.005')).toBe(2);
    expect(bucket('0.1')).toBe(2);
    expect(bucket('0.25')).toBe(3);
    expect(bucket('5')).toBe(3);
    expect(bucket('+Inf')).toBe(4);
    expect(sample(text, 'http_request_duration_seconds_sum', '{method="GET",route="/a"}')).toBeCloseTo(7.2055, 10);
    expect(sample(text, 'http_request_duration_seconds_count', '{method="GET",route="/a"}')).toBe(4);
    // Never decreasing from one bound to the next.
    const values = [...BUCKETS, '+Inf'].map((le) => bucket(le)!);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('still serves the default process metrics', async () => {
    const { registry } = createHttpMetrics();

    const text = await registry.metrics();

    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(samples(text, 'process_cpu_user_seconds_total').size).toBe(1);
    expect(samples(text, 'nodejs_heap_size_total_bytes').size).toBe(1);
  });

  it('writes only well-formed lines of the Prometheus text format', async () => {
    // No Prometheus text parser is installed; this checks the line grammar instead. prom-client writes NaN as
    // "Nan" (Prometheus parses float values case-insensitively), e.g. the event-loop lag before its first sample.
    const { registry, tallies } = createHttpMetrics();
    tallies.record('GET', '/items/:id', 200, 0.003);
    tallies.record('GET', 'unmatched', 404, 0.001);

    const text = await registry.metrics();
    const malformed = text
      .split('\n')
      .filter((line) => line !== '')
      .filter(
        (line) =>
          !/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line) &&
          !/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*\})? (-?[0-9.e+-]+|NaN|Nan|[+-]Inf)$/.test(
            line,
          ),
      );
    expect(malformed).toEqual([]);
    // Each metric family is described once.
    const types = text.split('\n').filter((line) => line.startsWith('# TYPE '));
    expect(new Set(types).size).toBe(types.length);
  });
});

const TOKEN = 'metrics-token-of-the-test';
const scrape = { authorization: `Bearer ${TOKEN}` };

describe('GET /metrics in the app', () => {
  it('labels requests with the route pattern, and requests no route matched as "unmatched"', async () => {
    const app = Fastify();
    registerMetrics(app, createHttpMetrics(), TOKEN);
    app.get('/items/:id', async (request) => ({ id: (request.params as { id: string }).id }));
    try {
      expect((await app.inject({ method: 'GET', url: '/items/7' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/items/8' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/nowhere/7' })).statusCode).toBe(404);

      const res = await app.inject({ method: 'GET', url: '/metrics', headers: scrape });

      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.body).toContain('http_requests_total{method="GET",route="/items/:id",status="200"} 2\n');
      expect(res.body).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1\n');
      expect(sample(res.body, 'http_request_duration_seconds_count', '{method="GET",route="/items/:id"}')).toBe(2);
      expect(res.body).not.toContain('/items/7');
      expect(res.body).not.toContain('/items/8');
      expect(res.body).not.toContain('/nowhere');
    } finally {
      await app.close();
    }
  });

  it('counts a scrape of /metrics once it has been answered', async () => {
    const app = Fastify();
    registerMetrics(app, createHttpMetrics(), TOKEN);
    try {
      await app.inject({ method: 'GET', url: '/metrics', headers: scrape });
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: scrape });

      expect(res.body).toContain('http_requests_total{method="GET",route="/metrics",status="200"} 1\n');
    } finally {
      await app.close();
    }
  });

  it('is served only with the bearer token (METRICS_TOKEN): another token or none is 401, and no token configured is no route', async () => {
    const guarded = Fastify();
    registerMetrics(guarded, createHttpMetrics(), TOKEN);
    const open = Fastify();
    registerMetrics(open, createHttpMetrics(), undefined);
    try {
      const refused = [
        {},
        { authorization: 'Bearer wrong-token-of-the-test' },
        { authorization: TOKEN },
        { authorization: `Bearer ${TOKEN}x` },
      ];
      for (const headers of refused) {
        const res = await guarded.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode, JSON.stringify(headers)).toBe(401);
        expect(res.body).not.toContain('http_requests_total');
      }
      expect((await guarded.inject({ method: 'GET', url: '/metrics', headers: scrape })).statusCode).toBe(200);
      expect((await open.inject({ method: 'GET', url: '/metrics', headers: scrape })).statusCode).toBe(404);
    } finally {
      await Promise.all([guarded.close(), open.close()]);
    }
  });
});
