import type { Registry } from 'prom-client';
import type { PartMode, PartState } from '../../config/part-modes.js';
import { LIVE_TRANSPORTS } from '../../observability/live-tallies.js';
import type { OperationTallies } from '../../observability/operation-tallies.js';
import {
  type ScrapedSeries,
  scrapedCounter,
  scrapedGauge,
  scrapedHistogram,
} from '../../observability/scraped-families.js';
import type { ServiceTelemetry } from '../../observability/service-telemetry.js';
import type { SourceHealthRegistry } from '../../sources/source-health.js';
import type { StoreDescription } from '../../store/store.js';
import type { OutboxStats } from '../../store/webhook-store.js';

/** What the operator families are read from when /metrics is scraped. */
export interface OperatorMetricSources {
  telemetry: ServiceTelemetry;
  operations: OperationTallies;
  sources: Pick<SourceHealthRegistry, 'counts'>;
  /** The store's outbox figures (one query per scrape). */
  outbox: { outboxStats(): Promise<OutboxStats> };
  /** The store's kind and durability as last read (Redis's is read again on reconnect and periodically). */
  store?: { describe(): StoreDescription };
  /** Wall clock for the oldest pending delivery's age. Default Date.now. */
  now?: () => number;
  /** Each part of the deployment, demo or live (config.parts). */
  parts?: readonly PartState[];
}

const PART_MODES: readonly PartMode[] = ['demo', 'live'];

/** Which part of the deployment is the embedded demo and which the real thing: one series per part and mode. */
function registerPartFamilies(registry: Registry, s: OperatorMetricSources): void {
  scrapedGauge(registry, {
    name: 'part_mode',
    help: '1 for the mode each part of the deployment runs in (demo: embedded or a generated value; live), 0 for the other',
    labelNames: ['part', 'mode'],
    series: function* () {
      for (const p of s.parts ?? []) {
        for (const mode of PART_MODES) yield { labels: { part: p.part, mode }, value: p.mode === mode ? 1 : 0 };
      }
    },
  });
}

const BREAKER_STATES = ['closed', 'half-open', 'open'] as const;

function* mapSeries<K>(counts: Map<K, number>, labels: (key: K) => Record<string, string>): Generator<ScrapedSeries> {
  for (const [key, value] of counts) yield { labels: labels(key), value };
}

/** The source families: requests, errors by kind, latency, breaker state, where answers came from. */
function registerSourceFamilies(registry: Registry, s: OperatorMetricSources): void {
  scrapedCounter(registry, {
    name: 'upstream_requests_total',
    help: 'Upstream calls each source made (every attempt, retries included)',
    labelNames: ['source', 'kind'],
    series: function* () {
      for (const c of s.sources.counts()) yield { labels: { source: c.name, kind: c.kind }, value: c.tally.requests };
    },
  });
  scrapedCounter(registry, {
    name: 'upstream_errors_total',
    help: 'Failed upstream calls by source and kind of failure (breaker_open: refused without calling)',
    labelNames: ['source', 'error'],
    series: function* () {
      for (const c of s.sources.counts()) yield* mapSeries(c.tally.errors, (error) => ({ source: c.name, error }));
    },
  });
  scrapedHistogram(registry, {
    name: 'upstream_request_duration_seconds',
    help: 'Duration of each upstream attempt by source',
    labelNames: ['source'],
    series: function* () {
      for (const c of s.sources.counts()) yield { labels: { source: c.name }, tally: c.tally.duration };
    },
  });
  scrapedGauge(registry, {
    name: 'upstream_breaker_state',
    help: "1 for each source's current circuit breaker state (closed, half-open, open), 0 for the others",
    labelNames: ['source', 'state'],
    series: function* () {
      for (const c of s.sources.counts()) {
        for (const state of BREAKER_STATES)
          yield { labels: { source: c.name, state }, value: c.breaker === state ? 1 : 0 };
      }
    },
  });
  scrapedCounter(registry, {
    name: 'upstream_answers_total',
    help: "Where each source's answers came from: hit (fresh cache), shared (a call in flight), miss (a new call), stale (cached, served because the upstream failed)",
    labelNames: ['source', 'result'],
    series: function* () {
      for (const c of s.sources.counts()) yield* mapSeries(c.tally.answers, (result) => ({ source: c.name, result }));
    },
  });
}

/** GraphQL operations by surface and published name: count and latency (the histogram), errors by code. */
function registerOperationFamilies(registry: Registry, s: OperatorMetricSources): void {
  scrapedHistogram(registry, {
    name: 'graphql_operation_duration_seconds',
    help: 'Duration of each GraphQL operation by surface (graphql, rest, mcp) and operation name (published names only, else other)',
    labelNames: ['surface', 'operation'],
    series: function* () {
      for (const t of s.operations.tallies()) {
        yield { labels: { surface: t.surface, operation: t.operation }, tally: t.duration };
      }
    },
  });
  scrapedCounter(registry, {
    name: 'graphql_operation_errors_total',
    help: 'GraphQL operations that failed, by surface, operation name and error code',
    labelNames: ['surface', 'operation', 'code'],
    series: function* () {
      for (const t of s.operations.tallies()) {
        yield* mapSeries(t.errors, (code) => ({ surface: t.surface, operation: t.operation, code }));
      }
    },
  });
}

const DURABILITIES = ['persistent', 'volatile', 'unknown'] as const;

/** Store calls: latency by method, outcomes (timeouts among them); whether the store keeps its data. */
function registerStoreFamilies(registry: Registry, s: OperatorMetricSources): void {
  const { storeCalls } = s.telemetry;
  const { store } = s;
  if (store) {
    scrapedGauge(registry, {
      name: 'store_durability',
      help: "1 for the store's durability as last read (persistent, volatile: a restart empties it, unknown: Redis refuses CONFIG), 0 for the others",
      labelNames: ['store', 'state'],
      series: function* () {
        const { kind, durability } = store.describe();
        for (const state of DURABILITIES) yield { labels: { store: kind, state }, value: durability === state ? 1 : 0 };
      },
    });
  }
  scrapedHistogram(registry, {
    name: 'store_call_duration_seconds',
    help: 'Duration of each store call by method',
    labelNames: ['call'],
    series: function* () {
      for (const [call, tally] of storeCalls.entries()) yield { labels: { call }, tally: tally.duration };
    },
  });
  scrapedCounter(registry, {
    name: 'store_calls_total',
    help: 'Store calls by method and outcome (ok, timeout: past STORE_TIMEOUT_MS, unavailable: the backend failed, error)',
    labelNames: ['call', 'outcome'],
    series: function* () {
      for (const [call, tally] of storeCalls.entries())
        yield* mapSeries(tally.outcomes, (outcome) => ({ call, outcome }));
    },
  });
}

/** The webhook outbox: depth and age read from the store at scrape time, attempts counted by this instance. */
function registerWebhookFamilies(registry: Registry, s: OperatorMetricSources): void {
  const now = s.now ?? Date.now;
  // One store query serves the three gauges of a scrape; a failing store leaves them out of that scrape.
  let scrape: Promise<OutboxStats | undefined> | undefined;
  const stats = () => {
    scrape ??= s.outbox
      .outboxStats()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (scrape = undefined)));
    return scrape;
  };
  const gauge = (name: string, help: string, value: (o: OutboxStats) => number | undefined) =>
    scrapedGauge(registry, {
      name,
      help,
      labelNames: [],
      series: async () => {
        const o = await stats();
        const v = o && value(o);
        return v === undefined ? [] : [{ labels: {}, value: v }];
      },
    });
  gauge('webhook_outbox_pending', 'Webhook deliveries waiting for an attempt', (o) => o.pending);
  gauge(
    'webhook_outbox_oldest_pending_age_seconds',
    'Age of the oldest pending webhook delivery (0: none pending)',
    (o) => (o.oldestPendingAt === null ? 0 : Math.max(0, (now() - o.oldestPendingAt) / 1000)),
  );
  gauge('webhooks_disabled', 'Webhooks the service disabled after failing for too long', (o) => o.disabledWebhooks);
  scrapedCounter(registry, {
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts this instance made, by result (delivered: a 2xx answer; failed: anything else)',
    labelNames: ['result'],
    series: () => mapSeries(s.telemetry.webhookAttempts.attempts, (result) => ({ result })),
  });
}

/** GraphQL subscriptions: open now, events delivered, subscriptions dropped for a slow reader; by transport. */
function registerLiveFamilies(registry: Registry, s: OperatorMetricSources): void {
  const { live } = s.telemetry;
  const byTransport = (counts: Map<string, number>) =>
    LIVE_TRANSPORTS.map((transport) => ({ labels: { transport }, value: counts.get(transport) ?? 0 }));
  scrapedGauge(registry, {
    name: 'live_subscriptions_open',
    help: 'GraphQL subscriptions open on this instance, by transport (sse, websocket)',
    labelNames: ['transport'],
    series: () => byTransport(live.open),
  });
  scrapedCounter(registry, {
    name: 'live_events_delivered_total',
    help: 'Subscription events this instance handed to a transport (sse, websocket), replayed ones included',
    labelNames: ['transport'],
    series: () => byTransport(live.delivered),
  });
  scrapedCounter(registry, {
    name: 'live_subscriptions_dropped_total',
    help: 'Subscriptions ended because their reader let LIVE_BUFFER_EVENTS events wait, by transport',
    labelNames: ['transport'],
    series: () => byTransport(live.dropped),
  });
}

/** Access: refusals by mode and limit, x402 offers, settlements, failures by stage. */
function registerAccessFamilies(registry: Registry, s: OperatorMetricSources): void {
  const { access } = s.telemetry;
  scrapedCounter(registry, {
    name: 'quota_refusals_total',
    help: 'Calls refused by a limit, by access mode (anonymous, siwe, api_key) and limit (per_minute, daily, credits, concurrency)',
    labelNames: ['mode', 'limit'],
    series: () =>
      mapSeries(access.quotaRefusals, (key) => {
        const [mode = '', limit = ''] = key.split(' ');
        return { mode, limit };
      }),
  });
  scrapedCounter(registry, {
    name: 'x402_offers_total',
    help: 'x402 payment offers (402) answered to calls past the daily limit',
    labelNames: [],
    series: () => [{ labels: {}, value: access.offers }],
  });
  scrapedCounter(registry, {
    name: 'x402_settlements_total',
    help: 'x402 payments settled',
    labelNames: [],
    series: () => [{ labels: {}, value: access.settlements }],
  });
  scrapedCounter(registry, {
    name: 'x402_payment_failures_total',
    help: 'x402 payments refused or not settled, by stage (check, replay, verify, settle, unavailable)',
    labelNames: ['stage'],
    series: () => mapSeries(access.paymentFailures, (stage) => ({ stage })),
  });
}

/**
 * Registers the families an operator runs the service by, all read from plain tallies when /metrics is scraped
 * (docs/operators.md#metrics lists them). Label values come from fixed sets: source names, store methods,
 * published operation names, error codes, access modes; never an address, a name or a key.
 * @example registerOperatorMetrics(metrics.registry, { telemetry, operations, sources: sources.health, outbox: store })
 */
export function registerOperatorMetrics(registry: Registry, s: OperatorMetricSources): void {
  registerSourceFamilies(registry, s);
  registerOperationFamilies(registry, s);
  registerStoreFamilies(registry, s);
  registerWebhookFamilies(registry, s);
  registerAccessFamilies(registry, s);
  registerLiveFamilies(registry, s);
  registerPartFamilies(registry, s);
}
