import type { Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, type DurationTally } from './duration-tally.js';

/** Label values of one series; every value comes from a bounded set (no addresses, names or keys). */
export type SeriesLabels = Record<string, string>;

export interface ScrapedSeries {
  labels: SeriesLabels;
  value: number;
}

interface ScrapedFamily<S> {
  name: string;
  help: string;
  /** The labels of every series, in the order they are written. */
  labelNames: readonly string[];
  /** Read when /metrics is scraped; a gauge's may ask the store. No series: the family is written without samples. */
  series: () => Iterable<S> | Promise<Iterable<S>>;
  /** What `registry.resetMetrics()` clears. */
  reset?: () => void;
}

type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

/**
 * Registers a family whose samples are made from tallies when /metrics is scraped, in the shape prom-client's
 * registry serializes (what its own metrics' `get()` returns): the request path adds to plain numbers, and nothing
 * is hashed or validated per event. Unlike prom-client's Gauge, a family with no series writes no sample (not a 0).
 */
function registerScraped(
  registry: Registry,
  type: 'counter' | 'gauge' | 'histogram',
  family: ScrapedFamily<unknown>,
  samples: (series: Iterable<unknown>) => Sample[],
): void {
  const { name, help } = family;
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    reset() {
      family.reset?.();
    },
    async get() {
      return { name, help, type, aggregator: metric.aggregator, values: samples(await family.series()) };
    },
  };
  // The registry only calls get() and reads name/type/aggregator, the contract prom-client's own metrics meet.
  registry.registerMetric(metric as unknown as Histogram);
}

function ordered(labelNames: readonly string[], labels: SeriesLabels): SeriesLabels {
  const out: SeriesLabels = {};
  for (const n of labelNames) out[n] = labels[n] ?? '';
  return out;
}

const plainSamples =
  (labelNames: readonly string[]) =>
  (series: Iterable<unknown>): Sample[] =>
    [...(series as Iterable<ScrapedSeries>)].map((s) => ({ labels: ordered(labelNames, s.labels), value: s.value }));

/**
 * A counter read from tallies when /metrics is scraped.
 * @example scrapedCounter(registry, { name: 'store_calls_total', help, labelNames: ['call', 'outcome'], series })
 */
export function scrapedCounter(registry: Registry, family: ScrapedFamily<ScrapedSeries>): void {
  registerScraped(registry, 'counter', family, plainSamples(family.labelNames));
}

/** A gauge read when /metrics is scraped (queue depth, breaker state). */
export function scrapedGauge(registry: Registry, family: ScrapedFamily<ScrapedSeries>): void {
  registerScraped(registry, 'gauge', family, plainSamples(family.labelNames));
}

/** A histogram of durations in seconds read from {@link DurationTally} series when /metrics is scraped. */
export function scrapedHistogram(
  registry: Registry,
  family: ScrapedFamily<{ labels: SeriesLabels; tally: DurationTally }>,
): void {
  const { name } = family;
  registerScraped(registry, 'histogram', family, (series) => {
    const values: Sample[] = [];
    for (const s of series as Iterable<{ labels: SeriesLabels; tally: DurationTally }>) {
      const labels = ordered(family.labelNames, s.labels);
      const { tally } = s;
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += tally.buckets[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: tally.count });
      values.push({ metricName: `${name}_sum`, labels, value: tally.sum });
      values.push({ metricName: `${name}_count`, labels, value: tally.count });
    }
    return values;
  });
}
