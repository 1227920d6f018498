import { describe, expect, it } from 'vitest';
import type { PriceSourceName } from '../../src/sources/prices/price-quotes.js';
import { askPriceSources, median, medianPrice, type SourceAnswer } from '../../subgraphs/prices/median-price.js';

const NOW_MS = Date.parse('2025-06-02T12:00:00Z');
const NOW_S = NOW_MS / 1000;

const quoted = (source: PriceSourceName, priceUsd: number, quotedAt: number | null = null): SourceAnswer => ({
  source,
  outcome: 'quoted',
  quote: { source, priceUsd, quotedAt },
});

describe('median', () => {
  it('is the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('the smart price', () => {
  it('is the median of three agreeing sources, each listed with its quote and age', () => {
    const result = medianPrice(
      [
        quoted('coingecko', 3012.45, NOW_S - 13),
        quoted('defillama-coins', 3010.12, NOW_S - 39),
        quoted('coinbase', 3013.9),
      ],
      NOW_MS,
    );
    expect(result).toMatchObject({ price: 3012.45, sourcesUsed: 3, sourcesAsked: 3, outlierTolerancePercent: 5 });
    expect(result!.spreadPercent).toBeCloseTo(((3013.9 - 3010.12) / 3012.45) * 100, 3);
    expect(result!.sources).toEqual([
      {
        source: 'coingecko',
        price: 3012.45,
        quotedAt: NOW_S - 13,
        ageSeconds: 13,
        included: true,
        reason: null,
        deviationPercent: 0,
      },
      {
        source: 'defillama-coins',
        price: 3010.12,
        quotedAt: NOW_S - 39,
        ageSeconds: 39,
        included: true,
        reason: null,
        deviationPercent: expect.any(Number),
      },
      {
        source: 'coinbase',
        price: 3013.9,
        quotedAt: null,
        ageSeconds: null,
        included: true,
        reason: null,
        deviationPercent: expect.any(Number),
      },
    ]);
  });

  it('leaves out a quote more than 5 % from the median of all quotes, and says so', () => {
    const result = medianPrice(
      [quoted('coingecko', 100), quoted('defillama-coins', 101), quoted('coinbase', 150)],
      NOW_MS,
    );
    expect(result?.price).toBe(100.5);
    expect(result?.sourcesUsed).toBe(2);
    expect(result?.sources[2]).toMatchObject({ source: 'coinbase', price: 150, included: false, reason: 'outlier' });
    expect(result?.sources[2]?.deviationPercent).toBeCloseTo(48.5149, 3);
    // The honest quotes stay in: measured against the median of the rest, 100 would be 20 % off (100 vs 125.5).
    expect(result?.sources.slice(0, 2).every((s) => s.included)).toBe(true);
  });

  it('keeps a quote exactly at the tolerance and drops one just beyond it', () => {
    const at = medianPrice([quoted('coingecko', 100), quoted('defillama-coins', 100), quoted('coinbase', 105)], NOW_MS);
    expect(at?.sources[2]?.included).toBe(true);
    const beyond = medianPrice(
      [quoted('coingecko', 100), quoted('defillama-coins', 100), quoted('coinbase', 105.01)],
      NOW_MS,
    );
    expect(beyond?.sources[2]).toMatchObject({ included: false, reason: 'outlier' });
  });

  it('answers from the sources that are up, listing the one that is down as unavailable', () => {
    const result = medianPrice(
      [
        quoted('coingecko', 3012.45),
        quoted('defillama-coins', 3010.12),
        { source: 'coinbase', outcome: 'unavailable' },
      ],
      NOW_MS,
    );
    expect(result?.price).toBeCloseTo(3011.285, 6);
    expect(result?.sources[2]).toEqual({
      source: 'coinbase',
      price: null,
      quotedAt: null,
      ageSeconds: null,
      included: false,
      reason: 'unavailable',
      deviationPercent: null,
    });
  });

  it('answers from a single quote, listing the source without the token as unlisted', () => {
    const result = medianPrice(
      [
        quoted('coingecko', 0.2311),
        { source: 'defillama-coins', outcome: 'unavailable' },
        { source: 'coinbase', outcome: 'unlisted' },
      ],
      NOW_MS,
    );
    expect(result).toMatchObject({ price: 0.2311, sourcesUsed: 1, sourcesAsked: 3, spreadPercent: 0 });
    expect(result?.sources.map((s) => s.reason)).toEqual([null, 'unavailable', 'unlisted']);
  });

  it('is a 503 when no source answered', () => {
    expect(() =>
      medianPrice(
        [
          { source: 'coingecko', outcome: 'unavailable' },
          { source: 'defillama-coins', outcome: 'unavailable' },
          { source: 'coinbase', outcome: 'unlisted' },
        ],
        NOW_MS,
      ),
    ).toThrow(expect.objectContaining({ status: 503, code: 'SERVICE_UNAVAILABLE' }));
  });

  it('is null (not found) when every source answered without a quote', () => {
    expect(
      medianPrice(
        [
          { source: 'coingecko', outcome: 'unlisted' },
          { source: 'coinbase', outcome: 'unlisted' },
        ],
        NOW_MS,
      ),
    ).toBeNull();
  });

  it('is a 503 when two quotes disagree so much that neither is within 5 % of their median', () => {
    expect(() => medianPrice([quoted('coingecko', 100), quoted('defillama-coins', 150)], NOW_MS)).toThrow(
      expect.objectContaining({ status: 503, message: expect.stringMatching(/disagree/) }),
    );
    expect(medianPrice([quoted('coingecko', 100), quoted('defillama-coins', 108)], NOW_MS)?.price).toBe(104);
  });

  it('never reports a negative age for a quote stamped in the future', () => {
    expect(medianPrice([quoted('coingecko', 1, NOW_S + 30)], NOW_MS)?.sources[0]?.ageSeconds).toBe(0);
  });
});

describe('asking the price sources', () => {
  it('asks all at once and turns failures and empty answers into outcomes', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pending = askPriceSources({
      coingecko: async () => {
        started.push('coingecko');
        await gate;
        return { source: 'coingecko', priceUsd: 1, quotedAt: null };
      },
      'defillama-coins': async () => {
        started.push('defillama-coins');
        throw new Error('down');
      },
      coinbase: null,
    });
    await Promise.resolve();
    expect(started).toEqual(['coingecko', 'defillama-coins']);
    release();
    expect(await pending).toEqual([
      { source: 'coingecko', outcome: 'quoted', quote: { source: 'coingecko', priceUsd: 1, quotedAt: null } },
      { source: 'defillama-coins', outcome: 'unavailable' },
      { source: 'coinbase', outcome: 'unlisted' },
    ]);
    expect(await askPriceSources({ coingecko: async () => null })).toEqual([
      { source: 'coingecko', outcome: 'unlisted' },
    ]);
  });
});
