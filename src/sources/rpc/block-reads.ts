import { hexToBigInt } from 'viem';
import type { SourceClient } from '../source-client.js';
import type { ChainRpcClient } from './chain-clients.js';

/**
 * Reads exact for the chain's latest block (docs/api-contract.md#data-freshness), made once per block. Each read
 * first learns the head: one `eth_blockNumber` for every read started in the same turn of the event loop, sent after
 * all of them, so a block a caller saw mined before asking is never missed. A read already made at that block is
 * answered from the source's cache; any other goes to the chain. When the head cannot be read the chain is failing,
 * and the read fails as any would: a recent value while stale-if-error allows it, else 503.
 * @example
 * const reads = new BlockReads({ client: chains.ethereum.client, rpc: rpc.ethereum })
 * await reads.read('ens:addr:alice.eth', () => client.getEnsAddress({ name: 'alice.eth' }))
 */
export class BlockReads {
  private nextHead: Promise<bigint> | undefined;

  constructor(private readonly p: { client: ChainRpcClient; rpc: SourceClient }) {}

  async read<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
    let block: bigint;
    try {
      block = await this.head();
    } catch {
      return this.p.rpc.staleOrUnavailable<T>(key);
    }
    return this.p.rpc.load(key, fetcher, { version: block });
  }

  /** The head block number, asked once for all reads started in this turn of the event loop. */
  private head(): Promise<bigint> {
    this.nextHead ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.nextHead = undefined;
      return this.p.rpc.load(
        'head',
        async () => hexToBigInt(await this.p.client.request({ method: 'eth_blockNumber' })),
        { cache: false },
      );
    });
    return this.nextHead;
  }
}
