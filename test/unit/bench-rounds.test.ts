import type autocannon from 'autocannon';
import { describe, expect, it } from 'vitest';
import { type BenchSide, compare, formatSpread, runRounds, spread, summarizeSide } from '../bench/side-rounds.js';

/** A side that answers `rps` requests per second of load, and notes when it ran. */
function fakeSide(name: string, rps: number, ran: string[]): BenchSide {
  return {
    name,
    pids: [],
    drive: async (durationS) => {
      ran.push(name);
      return {
        duration: durationS,
        requests: { total: rps * durationS, sent: rps * durationS },
        latency: { p50: 1, p99: 2 },
      } as unknown as autocannon.Result;
    },
  };
}

describe('the benchmark rounds (test/bench/side-rounds.ts)', () => {
  it('warms every side up, then rotates the order by one each round, so no side always runs first', async () => {
    const ran: string[] = [];
    const sides = ['a', 'b', 'c'].map((name) => fakeSide(name, 100, ran));
    const { rounds } = await runRounds(sides, { rounds: 3, seconds: 10, warmupS: 1 }, () => {});
    expect(ran.slice(0, 3)).toEqual(['a', 'b', 'c']);
    expect(rounds.map((r) => r.order)).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
    ]);
    expect(ran.slice(3)).toEqual(rounds.flatMap((r) => r.order));
  });

  it('records the load average with every round and each side its req/s', async () => {
    const { rounds } = await runRounds(
      [fakeSide('a', 50, []), fakeSide('b', 100, [])],
      {
        rounds: 2,
        seconds: 10,
        warmupS: 1,
      },
      () => {},
    );
    for (const round of rounds) {
      expect(round.loadAverage).toHaveLength(3);
      expect(round.loadAverageAtEnd).toHaveLength(3);
      expect(round.sides.a!.rps).toBe(50);
      expect(round.sides.b!.rps).toBe(100);
    }
    expect(compare(rounds, 'a', 'b').rps).toEqual({ median: 0.5, min: 0.5, max: 0.5 });
  });

  it('keeps every finished run when a side fails: the failed side is named and sits out the later rounds', async () => {
    const ran: string[] = [];
    const flaky = fakeSide('gateway', 80, ran);
    let calls = 0;
    const failing: BenchSide = {
      ...flaky,
      drive: async (durationS) => {
        calls++;
        if (calls === 3) throw new Error('1 timeouts');
        return flaky.drive(durationS);
      },
    };
    const { rounds, failures } = await runRounds(
      [fakeSide('ours', 100, ran), failing],
      { rounds: 3, seconds: 10, warmupS: 1 },
      () => {},
    );
    expect(failures).toEqual([{ side: 'gateway', round: 2, error: '1 timeouts' }]);
    expect(rounds).toHaveLength(3);
    expect(rounds[1]!.failed).toEqual({ gateway: '1 timeouts' });
    expect(rounds[2]!.order).toEqual(['ours']);
    expect(summarizeSide(rounds, 'ours').rps.median).toBe(100);
    // Only the round both sides finished counts towards their ratio.
    expect(compare(rounds, 'ours', 'gateway').rps).toEqual({ median: 1.25, min: 1.25, max: 1.25 });
    expect(formatSpread(compare(rounds, 'ours', 'nobody').rps)).toBe('— (failed)');
  });

  it('reports a figure over the rounds as its median and range', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(spread([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4 });
    expect(formatSpread(spread([0.61, 0.7, 0.66]))).toBe('0.66 (0.61–0.70)');
  });
});
