import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, type Histogram, Registry } from 'prom-client';
import { ApiError } from '../errors/api-error.js';

/** Upper bounds (seconds) of the request duration histogram. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

/** One route pattern and method: responses by status and the duration histogram (bucket counts, not cumulative). */
class RouteTally {
  readonly statuses = new Map<number, number>();
  readonly buckets = new Array<number>(DURATION_BUCKETS.length + 1).fill(0);
  sum = 0;
  count = 0;

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  record(status: number, seconds: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
    this.buckets[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/**
 * Every response counted in plain numbers (a Map lookup and a few additions on the request path), turned into
 * Prometheus series only when /metrics is scraped. prom-client's own inc/observe hash and validate their labels on
 * every call, which cost more than a whole cached answer.
 */
export class HttpTallies {
  private readonly byRoute = new Map<string, Map<string, RouteTally>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let tally = byMethod.get(method);
    if (!tally) {
      tally = new RouteTally(method, route);
      byMethod.set(method, tally);
    }
    tally.record(status, seconds);
  }

  clear(): void {
    this.byRoute.clear();
  }

  *tallies(): Generator<RouteTally> {
    for (const byMethod of this.byRoute.values()) yield* byMethod.values();
  }
}

export interface HttpMetrics {
  registry: Registry;
  tallies: HttpTallies;
}

/** http_request_duration_seconds in the shape prom-client's registry serializes (a histogram's `get()`). */
function durationHistogram(tallies: HttpTallies) {
  const name = 'http_request_duration_seconds';
  return {
    name,
    help: 'HTTP request duration by method and route pattern',
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    /** registry.resetMetrics(): starts every series over (http_requests_total is rebuilt from the same tallies). */
    reset() {
      tallies.clear();
    },
    async get() {
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const t of tallies.tallies()) {
        const labels = { method: t.method, route: t.route };
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += t.buckets[i]!;
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
        });
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: t.count });
        values.push({ metricName: `${name}_sum`, labels, value: t.sum });
        values.push({ metricName: `${name}_count`, labels, value: t.count });
      }
      return { name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
  };
}

/** Prometheus metrics of this process; labels use the route pattern, never the raw URL (bounded cardinality). */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const tallies = new HttpTallies();
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const t of tallies.tallies()) {
        for (const [status, n] of t.statuses) this.inc({ method: t.method, route: t.route, status: String(status) }, n);
      }
    },
  });
  // The registry only calls get() and reads name/type/aggregator, the contract prom-client's own Histogram meets.
  registry.registerMetric(durationHistogram(tallies) as unknown as Histogram);
  return { registry, tallies };
}

/**
 * Counts every response and serves GET /metrics in the Prometheus text format to a scraper that sends
 * `Authorization: Bearer <METRICS_TOKEN>`; without a configured token /metrics is not served (404 like any unknown path).
 * @example registerMetrics(app, createHttpMetrics(), config.metricsToken)
 */
export function registerMetrics(app: FastifyInstance, metrics: HttpMetrics, token: string | undefined): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.tallies.record(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (token === undefined) return;
  const expected = createHash('sha256').update(`Bearer ${token}`).digest();
  app.get('/metrics', async (request, reply) => {
    // Compared as digests of equal length, in constant time: the token never leaks through timing.
    const sent = createHash('sha256')
      .update(request.headers.authorization ?? '')
      .digest();
    if (!timingSafeEqual(sent, expected)) {
      throw new ApiError(
        'UNAUTHORIZED',
        'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
        {},
        {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        },
      );
    }
    reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
