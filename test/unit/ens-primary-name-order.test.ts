import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import type { BaseNamesReader } from '../../src/sources/ens/base-names-reader.js';
import type { EnsChainReader } from '../../src/sources/ens/ens-chain-reader.js';
import { ChainRoutedEnsReader } from '../../src/sources/ens/ens-reader.js';

const [A, B, C] = [
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000b2',
  '0x00000000000000000000000000000000000000c3',
] as Address[];

/** A chain's reverse lookups as a fixed table (or a failure), counting how often the chain is asked. */
function chain(names: Record<string, string> | Error) {
  const asked: Address[][] = [];
  const reader = {
    primaryNames: async (addresses: readonly Address[]) => {
      asked.push([...addresses]);
      if (names instanceof Error) throw names;
      return addresses.map((a) => names[a] ?? null);
    },
  };
  return { reader, asked };
}

const routed = (ethereum: ReturnType<typeof chain>, base?: ReturnType<typeof chain>) =>
  new ChainRoutedEnsReader({
    ethereum: ethereum.reader as unknown as EnsChainReader,
    base: base?.reader as unknown as BaseNamesReader | undefined,
  });

describe('primary names on two chains: Ethereum’s first, else Base’s', () => {
  it('answers the Ethereum name where there is one, the Base name otherwise, null where neither; each chain asked once for the batch', async () => {
    const ethereum = chain({ [A]: 'alice.eth' });
    const base = chain({ [A]: 'alice.base.eth', [B]: 'bob.base.eth' });
    expect(await routed(ethereum, base).primaryNames([A, B, C])).toEqual([
      { name: 'alice.eth', chain: 'ethereum' },
      { name: 'bob.base.eth', chain: 'base' },
      null,
    ]);
    expect([ethereum.asked, base.asked]).toEqual([[[A, B, C]], [[A, B, C]]]);
  });

  it('without a Base reader only Ethereum answers', async () => {
    expect(await routed(chain({ [B]: 'bob.eth' })).primaryNames([A, B])).toEqual([
      null,
      { name: 'bob.eth', chain: 'ethereum' },
    ]);
  });

  it('Base failing still answers a batch whose every address has an Ethereum name, and fails one that needs Base', async () => {
    const down = serviceUnavailable('Base RPC down');
    const ethereum = chain({ [A]: 'alice.eth' });
    expect(await routed(ethereum, chain(down)).primaryNames([A])).toEqual([{ name: 'alice.eth', chain: 'ethereum' }]);
    await expect(routed(ethereum, chain(down)).primaryNames([A, B])).rejects.toBe(down);
  });

  it('Ethereum failing fails the lookup: its name would come first', async () => {
    const down = serviceUnavailable('Ethereum RPC down');
    await expect(routed(chain(down), chain({ [A]: 'alice.base.eth' })).primaryNames([A])).rejects.toBe(down);
  });
});
