import { serviceUnavailable } from '../../src/errors/api-error.js';
import type { PriceSourceName, SpotQuote } from '../../src/sources/prices/price-quotes.js';

/**
 * A quote further than this from the median of ALL quotes is an outlier (5 %). The median of all, not of
 * "the rest": with three sources and one wild quote, the median of the other two (their mean) is dragged
 * towards the wild one and can make the honest quotes look like outliers; the median of all three cannot.
 */
export const OUTLIER_TOLERANCE = 0.05;

/** What asking one source gave. */
export type SourceAnswer =
  | { source: PriceSourceName; outcome: 'quoted'; quote: SpotQuote }
  /** The source has no quote for this token (not listed there). */
  | { source: PriceSourceName; outcome: 'unlisted' }
  /** The source failed: down, too slow, rate limited, malformed reply. */
  | { source: PriceSourceName; outcome: 'unavailable' };

/** Why a source's quote is not part of the smart price. */
export type ExclusionReason = 'unavailable' | 'unlisted' | 'outlier';

/** One source's line in a smart price. */
export interface SourceVerdict {
  source: PriceSourceName;
  price: number | null;
  /** Unix seconds of the upstream's own timestamp; null when its reply carries none. */
  quotedAt: number | null;
  ageSeconds: number | null;
  included: boolean;
  reason: ExclusionReason | null;
  /** Percent from the median of all quotes; null without a quote. */
  deviationPercent: number | null;
}

/** The median of the included quotes, and what happened to every source asked. */
export interface MedianPrice {
  price: number;
  sourcesUsed: number;
  sourcesAsked: number;
  /** (highest − lowest included quote) / price, in percent. */
  spreadPercent: number;
  outlierTolerancePercent: number;
  sources: SourceVerdict[];
}

/** An asker per source: null when the source does not list the token; resolves null when the source has no quote. */
export type PriceAskers = Partial<Record<PriceSourceName, (() => Promise<SpotQuote | null>) | null>>;

/**
 * The median of a non-empty list (the mean of the middle two for an even count).
 * @example median([3, 1, 2]) // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Asks every source at once; a failure is an answer ('unavailable'), never a thrown error.
 * @example await askPriceSources({ coingecko: () => cg.quote('ethereum'), coinbase: null })
 */
export async function askPriceSources(askers: PriceAskers): Promise<SourceAnswer[]> {
  const entries = Object.entries(askers) as [PriceSourceName, (() => Promise<SpotQuote | null>) | null | undefined][];
  return Promise.all(
    entries.map(async ([source, ask]): Promise<SourceAnswer> => {
      if (!ask) return { source, outcome: 'unlisted' };
      try {
        const quote = await ask();
        return quote ? { source, outcome: 'quoted', quote } : { source, outcome: 'unlisted' };
      } catch {
        return { source, outcome: 'unavailable' };
      }
    }),
  );
}

const percent = (value: number): number => Math.round(value * 1e6) / 1e4;

/**
 * Combines the answers into one price. Rule: take the median M of all quotes; a quote more than 5 % from M is
 * an outlier and left out; the price is the median of the rest. Every source is listed with its quote, its age
 * and why it was left out. null when no source lists the token (→ 404); 503 when no source answered, or when the
 * quotes disagree so much that none is within 5 % of their median (only possible with an even count, e.g. two).
 * @example medianPrice([{ source: 'coinbase', outcome: 'quoted', quote }], Date.now())?.price
 */
export function medianPrice(
  answers: readonly SourceAnswer[],
  nowMs: number,
  tolerance = OUTLIER_TOLERANCE,
): MedianPrice | null {
  const quoted = answers.flatMap((a) => (a.outcome === 'quoted' ? [a.quote.priceUsd] : []));
  if (quoted.length === 0) {
    if (answers.some((a) => a.outcome === 'unavailable')) throw serviceUnavailable('no price source answered');
    return null;
  }
  const center = median(quoted);
  const sources = answers.map((answer): SourceVerdict => {
    if (answer.outcome !== 'quoted') {
      const reason = answer.outcome;
      return {
        source: answer.source,
        price: null,
        quotedAt: null,
        ageSeconds: null,
        included: false,
        reason,
        deviationPercent: null,
      };
    }
    const { priceUsd, quotedAt } = answer.quote;
    const deviation = Math.abs(priceUsd - center) / center;
    const included = deviation <= tolerance;
    return {
      source: answer.source,
      price: priceUsd,
      quotedAt,
      ageSeconds: quotedAt === null ? null : Math.max(0, Math.round(nowMs / 1000 - quotedAt)),
      included,
      reason: included ? null : 'outlier',
      deviationPercent: percent(deviation),
    };
  });
  const kept = sources.flatMap((s) => (s.included && s.price !== null ? [s.price] : []));
  if (kept.length === 0) {
    throw serviceUnavailable(`price sources disagree by more than ${percent(tolerance)}% of their median`);
  }
  const price = median(kept);
  return {
    price,
    sourcesUsed: kept.length,
    sourcesAsked: answers.length,
    spreadPercent: percent((Math.max(...kept) - Math.min(...kept)) / price),
    outlierTolerancePercent: percent(tolerance),
    sources,
  };
}
