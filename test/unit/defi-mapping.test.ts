import { describe, expect, it } from 'vitest';
import { mapComplexProtocols } from '../../src/sources/defi/debank-client.js';
import { mapProtocolDetail, mapProtocols } from '../../src/sources/defi/defillama-client.js';
import { mapHacks, mapNextUnlocks, mapRaises } from '../../src/sources/defi/defillama-pro-client.js';
import { mapPools } from '../../src/sources/defi/defillama-yields-client.js';
import { mapChainActivity } from '../../src/sources/defi/growthepie-client.js';
import { paginate } from '../../subgraphs/defi/paginate.js';

describe('DeFi upstream replies are mapped at the edge; a reply of the wrong shape is refused', () => {
  it('protocols are ordered by TVL, largest first, whatever DefiLlama’s order; entries without a slug are left out', () => {
    const mapped = mapProtocols([
      { name: 'Small', slug: 'small', tvl: 10 },
      { name: 'No slug', tvl: 1e12 },
      { name: 'Big', slug: 'big', tvl: 1e9, symbol: '-', chains: ['Ethereum', 7] },
      { name: 'Unknown TVL', slug: 'unknown', tvl: null },
    ]);
    expect(mapped.map((p) => [p.slug, p.tvlUsd])).toEqual([
      ['big', 1e9],
      ['small', 10],
      ['unknown', null],
    ]);
    expect(mapped[0]).toMatchObject({ symbol: null, chains: ['Ethereum'] });
    expect(() => mapProtocols({ protocols: [] })).toThrow();
  });

  it("a protocol's per-chain TVL leaves out DefiLlama's sub-totals (borrowed, staking, pool2, <chain>-borrowed)", () => {
    const detail = mapProtocolDetail({
      name: 'Aave',
      currentChainTvls: { Ethereum: 100, Base: 50, borrowed: 80, 'Ethereum-borrowed': 60, staking: 5, 'Base-pool2': 1 },
      tvl: [
        { date: 2, totalLiquidityUSD: 150 },
        { date: 1, totalLiquidityUSD: 140 },
      ],
    });
    expect(detail.chainTvls).toEqual([
      { chain: 'Ethereum', tvlUsd: 100 },
      { chain: 'Base', tvlUsd: 50 },
    ]);
    expect(detail.tvlHistory.map((p) => p.date)).toEqual([1, 2]);
    expect(() => mapProtocolDetail({ message: 'Protocol is not in our database' })).toThrow();
  });

  it('raises are given in millions of USD upstream and in whole USD here; hacks keep USD', () => {
    expect(mapRaises({ raises: [{ date: 1, name: 'A', amount: 22.5, valuation: 0.0015 }] })[0]).toMatchObject({
      amountUsd: 22_500_000,
      valuationUsd: 1500,
    });
    expect(mapHacks([{ date: 1, name: 'H', amount: 1_460_000_000, chain: ['Ethereum'] }])[0]).toMatchObject({
      amountUsd: 1_460_000_000,
    });
    expect(() => mapRaises([])).toThrow();
  });

  it("a hack's chains are read from its `chain` list, the field DefiLlama's pro contract names", () => {
    expect(mapHacks([{ date: 1, name: 'H', chain: ['Ethereum', 'Base'] }])[0]?.chains).toEqual(['Ethereum', 'Base']);
    expect(mapHacks([{ date: 1, name: 'H', chains: ['Ethereum'] }])[0]?.chains).toEqual([]);
  });

  it('pools need an id, chain, project and TVL', () => {
    const pools = mapPools({
      status: 'success',
      data: [
        { pool: 'a', chain: 'Base', project: 'p', tvlUsd: 5 },
        { pool: 'b', chain: 'Base', tvlUsd: 9 },
      ],
    });
    expect(pools.map((p) => p.pool)).toEqual(['a']);
    expect(() => mapPools({ status: 'error' })).toThrow();
  });

  it('active addresses are read from the latest day growthepie reports for each chain', () => {
    const activity = mapChainActivity([
      { metric_key: 'daa', origin_key: 'base', date: '2026-11-19', value: 10 },
      { metric_key: 'daa', origin_key: 'base', date: '2026-11-20', value: 12.4 },
      { metric_key: 'aa_last7d', origin_key: 'base', date: '2026-11-19', value: 70 },
      { metric_key: 'aa_last7d', origin_key: 'base', date: '2026-11-20', value: 71 },
      { metric_key: 'daa', origin_key: 'op', date: 'yesterday', value: 5 },
    ]);
    expect([...activity.values()]).toEqual([
      { originKey: 'base', date: '2026-11-20', dailyActiveAddresses: 12, weeklyActiveAddresses: 71 },
    ]);
  });

  it('next unlocks keep only events that unlock tokens; millisecond dates are read as seconds', () => {
    const unlocks = mapNextUnlocks([
      { name: 'A', nextEvent: { date: 1_900_000_000_000, toUnlock: 5 } },
      { name: 'B', nextEvent: { date: 1_900_000_000, toUnlock: 0 } },
      { name: 'C' },
    ]);
    expect(unlocks).toEqual([expect.objectContaining({ name: 'A', date: 1_900_000_000, tokens: 5 })]);
  });

  it('DeBank portfolio items become positions, largest net value first, each token valued at amount × price', () => {
    const positions = mapComplexProtocols([
      {
        id: 'aave3',
        chain: 'eth',
        name: 'Aave V3',
        portfolio_item_list: [
          {
            name: 'Lending',
            stats: { asset_usd_value: 3, debt_usd_value: 1, net_usd_value: 2 },
            detail: { supply_token_list: [{ id: '0xt', symbol: 'WETH', amount: 2, price: 1.5 }] },
          },
          { name: 'Staked', stats: { asset_usd_value: 9, debt_usd_value: 0, net_usd_value: 9 }, detail: {} },
        ],
      },
    ]);
    expect(positions.map((p) => p.kind)).toEqual(['Staked', 'Lending']);
    expect(positions[1]!.supplied).toEqual([{ symbol: 'WETH', address: '0xt', amount: 2, priceUsd: 1.5, valueUsd: 3 }]);
    expect(() => mapComplexProtocols({ error_code: 1 })).toThrow();
  });

  it('offset pagination says whether items follow the page', () => {
    expect(paginate([1, 2, 3], 2, 0)).toEqual({
      data: [1, 2],
      pagination: { limit: 2, offset: 0, total: 3, hasMore: true },
    });
    expect(paginate([1, 2, 3], 2, 2).pagination.hasMore).toBe(false);
    expect(() => paginate([1], 101, 0)).toThrow(/limit/);
  });
});
