import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Counter, collectDefaultMetrics, Registry } from 'prom-client';
import { ApiError } from '../errors/api-error.js';
import { countInto, DurationTally } from '../observability/duration-tally.js';
import { scrapedCounter, scrapedHistogram } from '../observability/scraped-families.js';
import { type OperatorMetricSources, registerOperatorMetrics } from './observability/operator-metrics.js';

/** One route pattern and method: responses by status, error answers by code, and the duration histogram. */
class RouteTally {
  readonly statuses = new Map<number, number>();
  readonly errorCodes = new Map<string, number>();
  readonly duration = new DurationTally();

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  record(status: number, seconds: number, errorCode: string | undefined): void {
    countInto(this.statuses, status);
    if (errorCode !== undefined) countInto(this.errorCodes, errorCode);
    this.duration.record(seconds);
  }
}

/** The error code each error answer was rendered with (error-handler.ts notes it), read once it is sent. */
const answeredCodes = new WeakMap<FastifyReply, string>();

/** Notes the code of the error `reply` answers with, for `http_error_responses_total`. */
export function noteErrorCode(reply: FastifyReply, code: string): void {
  answeredCodes.set(reply, code);
}

/**
 * Every response counted in plain numbers (a Map lookup and a few additions on the request path), turned into
 * Prometheus series only when /metrics is scraped. prom-client's own inc/observe hash and validate their labels on
 * every call, which cost more than a whole cached answer.
 */
export class HttpTallies {
  private readonly byRoute = new Map<string, Map<string, RouteTally>>();

  record(method: string, route: string, status: number, seconds: number, errorCode?: string): void {
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
    tally.record(status, seconds, errorCode);
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

/**
 * Prometheus metrics of this process; labels use the route pattern, never the raw URL (bounded cardinality). With
 * `operator`, the families of docs/operators.md#metrics too (sources, operations, store, webhooks, access).
 */
export function createHttpMetrics(operator?: OperatorMetricSources): HttpMetrics {
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
  scrapedHistogram(registry, {
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method and route pattern',
    labelNames: ['method', 'route'],
    series: function* () {
      for (const t of tallies.tallies()) yield { labels: { method: t.method, route: t.route }, tally: t.duration };
    },
    // registry.resetMetrics(): starts every series over (http_requests_total is rebuilt from the same tallies).
    reset: () => tallies.clear(),
  });
  scrapedCounter(registry, {
    name: 'http_error_responses_total',
    help: 'Error answers by method, route pattern and error code (a REST row is its route pattern)',
    labelNames: ['method', 'route', 'code'],
    series: function* () {
      for (const t of tallies.tallies()) {
        for (const [code, value] of t.errorCodes) yield { labels: { method: t.method, route: t.route, code }, value };
      }
    },
  });
  if (operator) registerOperatorMetrics(registry, operator);
  return { registry, tallies };
}

/**
 * Counts every response and serves GET /metrics in the Prometheus text format to a scraper that sends
 * `Authorization: Bearer <METRICS_TOKEN>`; without a configured token /metrics is not served (404 like any unknown path).
 * @example registerMetrics(app, createHttpMetrics(), config.metricsToken)
 */
export function registerMetrics(app: FastifyInstance, metrics: HttpMetrics, token: string | undefined): void {
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    metrics.tallies.record(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      status,
      reply.elapsedTime / 1000,
      status >= 400 ? answeredCodes.get(reply) : undefined,
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
