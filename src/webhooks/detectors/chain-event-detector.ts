import type { Logger } from 'pino';
import type { WebhookFilters } from '../../arguments/webhook-body.js';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { Store } from '../../store/store.js';
import type { PublishEvents } from '../event-publisher.js';
import type { DetectedEvent } from '../event-types.js';
import type { EventDetector } from '../start-webhooks.js';
import {
  type BlockTraceMethod,
  type BlockTracer,
  blockInternalValueMoves,
  detectBlockTraceMethod,
} from './block-value-traces.js';
import {
  type EnsEventContracts,
  ensExpiryEvents,
  ensLogEvents,
  ethLabel,
  type LogRange,
  loadRegistrarHistory,
  tokenIdOf,
} from './ens-log-events.js';
import { EnsNameBook } from './ens-name-book.js';
import {
  formatUntracedBlocks,
  parseUntracedBlocks,
  retryUntracedBlocks,
  type TraceAttempt,
  untracedAfter,
  untracedBlocksName,
} from './untraced-blocks.js';
import { walletTransferEvents } from './wallet-transfer-events.js';

/** Blocks one step reads at most; a detector behind catches up a range per step. */
const MAX_BLOCKS_PER_STEP = 500n;

const nameExpiresAbi = [
  {
    type: 'function',
    name: 'nameExpires',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [{ type: 'uint256' }],
  },
] as const;

/**
 * The store name of a chain's cursor: by chain id and genesis hash, so that an embedded chain started afresh (a new
 * genesis) starts a new cursor instead of waiting for the old chain's height.
 */
export function chainCursorName(chainId: number, genesisHash: string): string {
  return `chain:${chainId}:${genesisHash}:block`;
}

/** `block:time` (time in Unix seconds): where the detector got to, kept in the store. */
function parseCursor(value: string | null): { block: bigint; time: number } | null {
  const match = value === null ? null : /^(\d+):(\d+)$/.exec(value);
  return match ? { block: BigInt(match[1]!), time: Number(match[2]) } : null;
}

/**
 * ENS and wallet events of one chain (`ens.*`, `wallet.*`), read from its logs and blocks `confirmations` behind the
 * head, from a block cursor persisted in the store together with the events (one atomic step): a restart continues
 * where the last recorded step ended, and events already recorded are not recorded again. Starts at the head it first
 * sees (no history is replayed), and idles while no webhook wants chain events. ETH moved by contracts is traced when
 * `traces` is on and the node answers a trace method (asked once, logged either way; asked again next step while the
 * answer is not known). A block whose trace fails is asked again on the next polls, up to MAX_TRACE_ATTEMPTS in all,
 * then skipped with a warning: its top-level events are delivered in their step, and the detector moves on.
 * @example runDetectors([chainEventDetector({ client, chainId: 1, contracts, confirmations: 0, store, publish, intervalMs: 1000, traces: true, logger })])
 */
export function chainEventDetector(p: {
  client: ChainRpcClient;
  chainId: number;
  /** The ENS contracts to watch; undefined: no ENS events (wallet events only). */
  contracts: EnsEventContracts | undefined;
  /** Load every registrar registration from block 0 at start (the embedded chain; too much for mainnet). */
  ensHistory: boolean;
  confirmations: number;
  store: Store;
  publish: PublishEvents;
  intervalMs: number;
  /** Trace blocks for ETH contracts move, when the node can (probed once); false: top-level ETH only. */
  traces: boolean;
  logger: Logger;
}): EventDetector {
  let names: { block: string; untraced: string } | undefined;
  /** undefined until asked: the node is asked once, the first time a block range is read for ETH transfers. */
  let traceMethod: BlockTraceMethod | null | undefined = p.traces ? undefined : null;

  /**
   * How this step traces blocks: null when it does not; while the node's trace method is not known (the question
   * failed for now), every block that needs a trace fails with that failure, to be asked again.
   */
  const tracer = async (block: bigint): Promise<BlockTracer | null> => {
    if (traceMethod === undefined) {
      try {
        traceMethod = await detectBlockTraceMethod(p.client, block);
      } catch (error) {
        p.logger.warn({ chainId: p.chainId }, 'webhooks: which trace method the node answers is not known yet');
        return () => Promise.reject(error);
      }
      if (traceMethod) p.logger.info({ chainId: p.chainId, traceMethod }, 'webhooks: internal ETH transfers traced');
      else
        p.logger.warn(
          { chainId: p.chainId },
          'webhooks: the node answers neither trace_block nor debug_traceBlockByNumber; ETH moved by contracts is not reported',
        );
    }
    const method = traceMethod;
    return method
      ? (n, transactions) => blockInternalValueMoves({ client: p.client, method, block: n, transactions })
      : null;
  };
  const book = new EnsNameBook('eth');
  let historyLoaded = !p.ensHistory;
  const expiryRead = new Set<string>();

  /** Exact .eth names webhooks filter on, whose expiry no registrar log in view has told. */
  const readExpiries = async (names: string[]): Promise<void> => {
    const contracts = p.contracts;
    if (!contracts) return;
    for (const name of names) {
      const label = ethLabel(name, 'eth');
      if (!label || book.expiries.has(name) || expiryRead.has(name)) continue;
      expiryRead.add(name);
      const expires = await p.client
        .readContract({
          address: contracts.registrar,
          abi: nameExpiresAbi,
          functionName: 'nameExpires',
          args: [tokenIdOf(label)],
        })
        .catch(() => 0n);
      if (expires > 0n) book.learnLabel(label, Number(expires));
    }
  };

  const cursorNames = async () => {
    if (!names) {
      const genesis = (await p.client.getBlock({ blockNumber: 0n })).hash;
      names = { block: chainCursorName(p.chainId, genesis), untraced: untracedBlocksName(p.chainId, genesis) };
    }
    return names;
  };
  const isChainEvent = (event: string) => event.startsWith('ens.') || event.startsWith('wallet.');
  /** The safe head now, and the cursor when there is one; without one it is set at that head (detection starts there). */
  const headAndCursor = async () => {
    const cursorName = (await cursorNames()).block;
    // viem caches the block number for its polling interval (4 s) unless told not to.
    const head = await p.client.getBlockNumber({ cacheTime: 0 });
    const safe = head - BigInt(p.confirmations);
    if (safe < 0n) return { safe, cursor: null };
    const cursor = parseCursor(await p.store.getCursor(cursorName));
    if (!cursor) {
      const block = await p.client.getBlock({ blockNumber: safe });
      await p.publish([], { [cursorName]: `${safe}:${block.timestamp}` });
    }
    return { safe, cursor };
  };

  return {
    name: `chain ${p.chainId}`,
    intervalMs: p.intervalMs,
    async startWatching(events) {
      // The first webhook to want chain events fixes where detection starts before its creation is answered, so a
      // transaction its creator sends next is seen even when it is mined before the next step.
      if (events.some(isChainEvent)) await headAndCursor();
    },
    async step() {
      const webhooks = await p.store.listActiveWebhooks();
      const wanted = new Set(webhooks.flatMap((w) => w.events));
      // Idle (no RPC at all) while no webhook wants chain events; the cursor then resumes where it stopped.
      if (![...wanted].some(isChainEvent)) return;
      const { safe, cursor } = await headAndCursor();
      if (!cursor) return;
      const { block: cursorName, untraced: untracedName } = await cursorNames();
      if (!historyLoaded && p.contracts) {
        await loadRegistrarHistory({ client: p.client, registrar: p.contracts.registrar, book, toBlock: cursor.block });
        historyLoaded = true;
      }
      if (cursor.block >= safe) return;
      const fromBlock = cursor.block + 1n;
      const toBlock = safe - fromBlock + 1n > MAX_BLOCKS_PER_STEP ? fromBlock + MAX_BLOCKS_PER_STEP - 1n : safe;

      const exactNames = webhooks.flatMap((w) =>
        ((w.filters as WebhookFilters).names ?? []).filter((n) => !n.startsWith('*.')),
      );
      for (const name of exactNames) book.learnName(name);
      const watched = [
        ...new Set(
          webhooks
            .filter((w) => w.events.some((e) => e.startsWith('wallet.')))
            .flatMap((w) => (w.filters as WebhookFilters).addresses ?? []),
        ),
      ];

      const times = new Map<bigint, Promise<number>>();
      const blockTime = (n: bigint): Promise<number> => {
        let found = times.get(n);
        if (!found) {
          found = p.client.getBlock({ blockNumber: n }).then((b) => Number(b.timestamp) * 1000);
          times.set(n, found);
        }
        return found;
      };
      const range: LogRange = { chainId: p.chainId, fromBlock, toBlock, blockTime };
      const events: DetectedEvent[] = [];
      if (p.contracts) {
        // Registrar logs are read even with no ENS subscriber: they keep the names and expiries current.
        events.push(
          ...(await ensLogEvents({
            client: p.client,
            contracts: p.contracts,
            book,
            range,
            records: wanted.has('ens.record_changed'),
          })),
        );
      }
      const traceFailures: TraceAttempt[] = [];
      const untraced = await p.store.getCursor(untracedName);
      if (wanted.has('wallet.transfer') || wanted.has('wallet.nft_transfer')) {
        const eth = wanted.has('wallet.transfer');
        const traceBlock = eth && watched.length > 0 ? await tracer(toBlock) : null;
        const wallet = await walletTransferEvents({ client: p.client, range, watched, eth, traceBlock });
        events.push(...wallet.events);
        traceFailures.push(...wallet.traceFailures.map((f) => ({ ...f, attempt: 1 })));
        if (traceBlock && untraced) {
          const blocks = parseUntracedBlocks(untraced);
          const retried = await retryUntracedBlocks({
            client: p.client,
            chainId: p.chainId,
            traceBlock,
            blocks,
            watched,
          });
          events.push(...retried.events);
          traceFailures.push(...retried.failures);
        }
      }
      const toTime = (await blockTime(toBlock)) / 1000;
      if (p.contracts && (wanted.has('ens.expiring') || wanted.has('ens.expired'))) {
        await readExpiries(exactNames);
        events.push(...ensExpiryEvents({ chainId: p.chainId, book, fromTime: cursor.time, toTime }));
      }
      // Untraced blocks left from before are dropped when no one watches ETH any more or nothing is traced.
      const cursors: Record<string, string> = { [cursorName]: `${toBlock}:${toTime}` };
      if (untraced || traceFailures.length > 0)
        cursors[untracedName] = formatUntracedBlocks(untracedAfter(traceFailures, p));
      await p.publish(events, cursors);
    },
  };
}
