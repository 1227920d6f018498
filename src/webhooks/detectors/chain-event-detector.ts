import type { Logger } from 'pino';
import { isChainEvent, type WebhookFilters, webhookFamily } from '../../arguments/webhook-body.js';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { Store } from '../../store/store.js';
import type { Watcher } from '../event-matching.js';
import type { PublishEvents } from '../event-publisher.js';
import type { DetectedEvent } from '../event-types.js';
import type { EventDetector } from '../start-webhooks.js';
import type { BlockTracer } from './block-value-traces.js';
import { chainPosition } from './chain-cursor.js';
import { ensExpiryReader } from './ens-expiry-reader.js';
import {
  type EnsEventContracts,
  ensExpiryEvents,
  ensLogEvents,
  type LogRange,
  loadRegistrarHistory,
} from './ens-log-events.js';
import { EnsNameBook } from './ens-name-book.js';
import { lazyBlockTracer } from './lazy-block-tracer.js';
import {
  formatUntracedBlocks,
  parseUntracedBlocks,
  retryUntracedBlocks,
  type TraceAttempt,
  untracedAfter,
} from './untraced-blocks.js';
import { walletTransferEvents } from './wallet-transfer-events.js';

/** Blocks one step reads at most; a detector behind catches up a range per step. */
const MAX_BLOCKS_PER_STEP = 500n;

/** What the active webhooks want of a chain: their events, the exact names and the wallet addresses they filter on. */
interface ChainWants {
  events: ReadonlySet<string>;
  exactNames: string[];
  watched: string[];
}

function chainWants(webhooks: readonly Watcher[]): ChainWants {
  const filters = (w: Watcher) => w.filters as WebhookFilters;
  return {
    events: new Set(webhooks.flatMap((w) => w.events)),
    exactNames: webhooks.flatMap((w) => (filters(w).names ?? []).filter((n) => !n.startsWith('*.'))),
    watched: [
      ...new Set(
        webhooks
          .filter((w) => w.events.some((e) => webhookFamily(e) === 'wallet'))
          .flatMap((w) => filters(w).addresses ?? []),
      ),
    ],
  };
}

/** The blocks of one step after the cursor, up to the safe head and at most MAX_BLOCKS_PER_STEP; block times read once. */
function stepRange(client: ChainRpcClient, chainId: number, cursor: bigint, safe: bigint): LogRange {
  const fromBlock = cursor + 1n;
  const toBlock = safe - fromBlock + 1n > MAX_BLOCKS_PER_STEP ? fromBlock + MAX_BLOCKS_PER_STEP - 1n : safe;
  const times = new Map<bigint, Promise<number>>();
  const blockTime = (n: bigint): Promise<number> => {
    let found = times.get(n);
    if (!found) {
      found = client.getBlock({ blockNumber: n }).then((b) => Number(b.timestamp) * 1000);
      times.set(n, found);
    }
    return found;
  };
  return { chainId, fromBlock, toBlock, blockTime };
}

/**
 * A step's `wallet.*` events: token and NFT transfers of the range, ETH traced where a tracer is given, and the blocks
 * whose trace failed before asked again.
 */
async function walletStepEvents(p: {
  client: ChainRpcClient;
  range: LogRange;
  wants: ChainWants;
  tracer: (block: bigint) => Promise<BlockTracer | null>;
  untraced: string | null;
}): Promise<{ events: DetectedEvent[]; traceFailures: TraceAttempt[] }> {
  const events: DetectedEvent[] = [];
  const traceFailures: TraceAttempt[] = [];
  const { wants, range } = p;
  if (!wants.events.has('wallet.transfer') && !wants.events.has('wallet.nft_transfer'))
    return { events, traceFailures };
  const eth = wants.events.has('wallet.transfer');
  const traceBlock = eth && wants.watched.length > 0 ? await p.tracer(range.toBlock) : null;
  const wallet = await walletTransferEvents({ client: p.client, range, watched: wants.watched, eth, traceBlock });
  events.push(...wallet.events);
  traceFailures.push(...wallet.traceFailures.map((f) => ({ ...f, attempt: 1 })));
  if (traceBlock && p.untraced) {
    const blocks = parseUntracedBlocks(p.untraced);
    const retried = await retryUntracedBlocks({
      client: p.client,
      chainId: range.chainId,
      traceBlock,
      blocks,
      watched: wants.watched,
    });
    events.push(...retried.events);
    traceFailures.push(...retried.failures);
  }
  return { events, traceFailures };
}

/**
 * ENS and wallet events of one chain (`ens.*`, `wallet.*`), read from its logs and blocks `confirmations` behind the
 * head, from a block cursor persisted in the store together with the events (one atomic step): a restart continues
 * where the last recorded step ended, and events already recorded are not recorded again. Starts at the head it first
 * sees (no history is replayed), and idles while no webhook wants chain events. ETH moved by contracts is traced when
 * `traces` is on and the node answers a trace method (src/webhooks/detectors/lazy-block-tracer.ts). A block whose
 * trace fails is asked again on the next polls, up to MAX_TRACE_ATTEMPTS in all, then skipped with a warning: its
 * top-level events are delivered in their step, and the detector moves on.
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
  /** Who wants events: the active webhooks and the open subscriptions (RunningWebhooks.wanted); default the webhooks. */
  wanted?: () => Promise<readonly Watcher[]>;
  publish: PublishEvents;
  intervalMs: number;
  /** Trace blocks for ETH contracts move, when the node can (probed once); false: top-level ETH only. */
  traces: boolean;
  logger: Logger;
}): EventDetector {
  const wanted = p.wanted ?? (() => p.store.listActiveWebhooks());
  const position = chainPosition(p);
  const tracer = lazyBlockTracer(p);
  const book = new EnsNameBook('eth');
  const readExpiries = p.contracts ? ensExpiryReader({ client: p.client, contracts: p.contracts, book }) : undefined;
  let historyLoaded = !p.ensHistory;

  return {
    name: `chain ${p.chainId}`,
    intervalMs: p.intervalMs,
    async startWatching(events) {
      // The first webhook to want chain events fixes where detection starts before its creation is answered, so a
      // transaction its creator sends next is seen even when it is mined before the next step.
      if (events.some(isChainEvent)) await position.headAndCursor();
    },
    async step() {
      const wants = chainWants(await wanted());
      // Idle (no RPC at all) while no webhook wants chain events; the cursor then resumes where it stopped.
      if (![...wants.events].some(isChainEvent)) return;
      const { safe, cursor } = await position.headAndCursor();
      if (!cursor) return;
      const names = await position.names();
      if (!historyLoaded && p.contracts) {
        await loadRegistrarHistory({ client: p.client, registrar: p.contracts.registrar, book, toBlock: cursor.block });
        historyLoaded = true;
      }
      if (cursor.block >= safe) return;
      const range = stepRange(p.client, p.chainId, cursor.block, safe);
      for (const name of wants.exactNames) book.learnName(name);
      const events: DetectedEvent[] = [];
      if (p.contracts) {
        // Registrar logs are read even with no ENS subscriber: they keep the names and expiries current.
        const records = wants.events.has('ens.record_changed');
        events.push(...(await ensLogEvents({ client: p.client, contracts: p.contracts, book, range, records })));
      }
      const untraced = await p.store.getCursor(names.untraced);
      const wallet = await walletStepEvents({ client: p.client, range, wants, tracer, untraced });
      events.push(...wallet.events);
      const toTime = (await range.blockTime(range.toBlock)) / 1000;
      if (readExpiries && (wants.events.has('ens.expiring') || wants.events.has('ens.expired'))) {
        await readExpiries(wants.exactNames);
        events.push(...ensExpiryEvents({ chainId: p.chainId, book, fromTime: cursor.time, toTime }));
      }
      // Untraced blocks left from before are dropped when no one watches ETH any more or nothing is traced.
      const cursors: Record<string, string> = { [names.block]: `${range.toBlock}:${toTime}` };
      if (untraced || wallet.traceFailures.length > 0)
        cursors[names.untraced] = formatUntracedBlocks(untracedAfter(wallet.traceFailures, p));
      await p.publish(events, cursors);
    },
  };
}
