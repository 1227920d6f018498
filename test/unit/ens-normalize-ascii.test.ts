import { normalize as viemNormalize } from 'viem/ens';
import { describe, expect, it } from 'vitest';
import { asciiNormalize } from '../../src/sources/ens/name-hashes.js';

/** viem's answer: the normalised name, or the fact that it throws. */
function viemAnswer(name: string): string {
  try {
    return viemNormalize(name);
  } catch {
    return 'throws';
  }
}

/** Every name of up to `length` characters over `alphabet` (a small exhaustive corpus). */
function allNames(alphabet: string, length: number): string[] {
  let names = [''];
  const out: string[] = [];
  for (let n = 1; n <= length; n++) {
    names = names.flatMap((prefix) => [...alphabet].map((c) => prefix + c));
    out.push(...names);
  }
  return out;
}

describe('plain ASCII names are normalised without the ENSIP-15 tables, exactly as viem normalises them', () => {
  it('answers every name of letters, digits, hyphens and dots it accepts as viem does, and leaves the rest to it', () => {
    const corpus = [
      ...allNames('aZ9-.', 5),
      'alice.eth',
      'Alice.ETH',
      'name-0.eth',
      '-lead.eth',
      'trail-.eth',
      'xn--nxasmq6b.eth',
      'ab--cd.eth',
      'a--b.eth',
      'abc--d.eth',
      '1234567890.eth',
      'sub.domain.alice.eth',
      'ÖL.eth',
      'a_b.eth',
      '_a.eth',
      '$.eth',
      'a..eth',
      '.eth',
      'eth.',
    ];
    let fast = 0;
    for (const name of corpus) {
      const answer = asciiNormalize(name);
      if (answer === undefined) continue;
      fast++;
      expect([name, answer]).toEqual([name, viemAnswer(name)]);
    }
    // Most of the corpus takes the fast path: the comparison is not vacuous.
    expect(fast).toBeGreaterThan(1000);
  });

  it('leaves a label extension (xn--, ab--), an underscore, a non-ASCII letter and an empty label to the full normaliser', () => {
    for (const name of ['xn--nxasmq6b.eth', 'ab--cd.eth', '_a.eth', 'ÖL.eth', 'a..eth', '.eth', 'eth.', '']) {
      expect(asciiNormalize(name)).toBeUndefined();
    }
  });
});
