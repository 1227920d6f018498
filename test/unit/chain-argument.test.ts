import { describe, expect, it } from 'vitest';
import { chainName } from '../../src/arguments/chain.js';

describe('a chain argument', () => {
  it('parses a name in any case or a numeric ID to the chain key', () => {
    expect(chainName.parse(' Base ')).toBe('base');
    expect(chainName.parse('42161')).toBe('arbitrum');
  });

  it('refuses anything else, listing the chains of CHAINS', () => {
    const refused = chainName.safeParse('solana');
    expect(refused.error?.issues.map((i) => i.message)).toEqual([
      'must be one of ethereum (1), base (8453), arbitrum (42161), optimism (10), polygon (137)',
    ]);
  });
});
