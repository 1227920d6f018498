import { hexToBigInt } from 'viem';
import type { SourceClient } from '../source-client.js';
import type { AskedAt } from './asked-at.js';
import { markAsked } from './asked-at.js';
import type { ChainRpcClient } from './chain-clients.js';

/** A head read and where it started in the order requests arrive in (asked-at.ts). */
interface HeadRead {
  startedAt: AskedAt;
  block: Promise<bigint>;
}

/**
 * Reads exact for the chain's latest block (docs/api-contract.md#data-freshness), made once per block. Each read
 * first learns the head, so that a block a caller saw mined before asking is never missed: a read made for a request
 * (its `askedAt`, marked as it arrived) takes the last `eth_blockNumber` started after the request arrived, whichever
 * request started it; else, and for reads made for no request, one `eth_blockNumber` for every read started in the
 * same turn of the event loop, sent after all of them. So a request resolving in several rounds learns the head
 * once, and concurrent requests share it. A read already made at that block is answered from the source's cache;
 * any other goes to the chain. When the head cannot be read the chain is failing, and the read fails as any would:
 * a recent value while stale-if-error allows it, else 503.
 * @example
 * const reads = new BlockReads({ client: chains.ethereum.client, rpc: rpc.ethereum })
 * await reads.read('ens:addr:alice.eth', () => client.getEnsAddress({ name: 'alice.eth' }), ctx.askedAt)
 */
export class BlockReads {
  private nextHead: Promise<bigint> | undefined;
  /** The head read started last; forgotten when it fails. */
  private lastHead: HeadRead | undefined;

  constructor(private readonly p: { client: ChainRpcClient; rpc: SourceClient }) {}

  /** `askedAt`: when the request the read is made for arrived; undefined for a read made for none. */
  async read<T>(key: string, fetcher: () => Promise<T>, askedAt?: AskedAt): Promise<T> {
    let block: bigint;
    try {
      block = await this.head(askedAt);
    } catch {
      return this.p.rpc.staleOrUnavailable<T>(key);
    }
    return this.p.rpc.load(key, fetcher, { version: block });
  }

  /**
   * The head block number: the last read of it when that started after the request arrived, else the one asked for
   * every read started in this turn of the event loop (it starts after them all).
   */
  private head(askedAt: AskedAt | undefined): Promise<bigint> {
    const last = this.lastHead;
    if (askedAt !== undefined && last !== undefined && last.startedAt > askedAt) return last.block;
    this.nextHead ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.nextHead = undefined;
      return this.startHeadRead();
    });
    return this.nextHead;
  }

  private startHeadRead(): Promise<bigint> {
    // Marked before the request leaves: every request marked before this mark arrived before the chain is asked.
    const started: HeadRead = {
      startedAt: markAsked(),
      block: this.p.rpc.load(
        'head',
        async () => hexToBigInt(await this.p.client.request({ method: 'eth_blockNumber' })),
        { cache: false },
      ),
    };
    this.lastHead = started;
    started.block.catch(() => {
      if (this.lastHead === started) this.lastHead = undefined;
    });
    return started.block;
  }
}
