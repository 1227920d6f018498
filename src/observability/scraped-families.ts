import { Counter, Gauge, type Histogram, type Registry } from 'prom-client';
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
  labelNames: readonly string[];
  /** Read when /metrics is scraped; a gauge's may ask the store. */
  series: () => Iterable<S> | Promise<Iterable<S>>;
}

/**
 * A counter whose series are read from tallies when /metrics is scraped: the request path adds to plain numbers,
 * and prom-client's label hashing runs once per series per scrape instead of once per event.
 * @example scrapedCounter(registry, { name: 'store_calls_total', help, labelNames: ['call'], series: () => tallies.counts() })
 */
export function scrapedCounter(registry: Registry, family: ScrapedFamily<ScrapedSeries>): void {
  new Counter({
    name: family.name,
    help: family.help,
    labelNames: family.labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of await family.series()) this.inc(s.labels, s.value);
    },
  });
}

/** A gauge set from its series when /metrics is scraped (queue depth, breaker state). */
export function scrapedGauge(registry: Registry, family: ScrapedFamily<ScrapedSeries>): void {
  new Gauge({
    name: family.name,
    help: family.help,
    labelNames: family.labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of await family.series()) this.set(s.labels, s.value);
    },
  });
}

/**
 * A histogram of durations in seconds read from {@link DurationTally} series when /metrics is scraped, in the shape
 * prom-client's registry serializes (what its own Histogram's `get()` returns). `reset` is what
 * `registry.resetMetrics()` clears.
 */
export function scrapedHistogram(
  registry: Registry,
  family: ScrapedFamily<{ labels: SeriesLabels; tally: DurationTally }> & { reset?: () => void },
): void {
  const { name, help } = family;
  const metric = {
    name,
    help,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    reset() {
      family.reset?.();
    },
    async get() {
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const { labels, tally } of await family.series()) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += tally.buckets[i]!;
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
        });
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: tally.count });
        values.push({ metricName: `${name}_sum`, labels, value: tally.sum });
        values.push({ metricName: `${name}_count`, labels, value: tally.count });
      }
      return { name, help, type: metric.type, aggregator: metric.aggregator, values };
    },
  };
  // The registry only calls get() and reads name/type/aggregator, the contract prom-client's own Histogram meets.
  registry.registerMetric(metric as unknown as Histogram);
}
