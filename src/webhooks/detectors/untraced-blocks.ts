import type { Logger } from 'pino';
import { BaseError } from 'viem';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { DetectedEvent } from '../event-types.js';
import type { BlockTracer } from './block-value-traces.js';
import { internalTransferEvents, type TraceFailure } from './eth-transfer-events.js';

/**
 * How many times a block's trace is asked before its internal ETH transfers are skipped: once by the step that reads
 * the block, then once on each of the next polls. A failure for now (a timeout, a node behind) is asked again and
 * loses nothing; one that persists (a block too heavy for the callTracer, a reply over the provider's size limit)
 * is skipped with a warning, so that it holds nothing else up.
 */
export const MAX_TRACE_ATTEMPTS = 3;

/** Blocks whose trace failed, each with the attempts made so far. */
export type UntracedBlocks = Map<bigint, number>;

/** A failed trace and which attempt it was. */
export interface TraceAttempt extends TraceFailure {
  attempt: number;
}

/**
 * The store name of a chain's untraced blocks, next to its block cursor and written in the same atomic step: a
 * restart still asks them again.
 * @example untracedBlocksName(1, '0xd4e5…') // 'chain:1:0xd4e5…:untraced'
 */
export function untracedBlocksName(chainId: number, genesisHash: string): string {
  return `chain:${chainId}:${genesisHash}:untraced`;
}

/**
 * The stored form `block:attempts,…` read back; an unreadable entry is left out.
 * @example parseUntracedBlocks('120:1,131:2') // Map { 120n => 1, 131n => 2 }
 */
export function parseUntracedBlocks(value: string | null): UntracedBlocks {
  const blocks: UntracedBlocks = new Map();
  for (const entry of (value ?? '').split(',')) {
    const match = /^(\d+):(\d+)$/.exec(entry);
    if (match) blocks.set(BigInt(match[1]!), Number(match[2]));
  }
  return blocks;
}

/**
 * The stored form of untraced blocks: `block:attempts,…`, empty for none.
 * @example formatUntracedBlocks(new Map([[120n, 1]])) // '120:1'
 */
export function formatUntracedBlocks(blocks: UntracedBlocks): string {
  return [...blocks].map(([block, attempts]) => `${block}:${attempts}`).join(',');
}

/** What a failed trace says, without the node's URL (which may carry a key): the error's name and the node's words. */
function failureReason(error: unknown): string {
  if (error instanceof BaseError) return `${error.name}: ${error.details || error.shortMessage}`.slice(0, 200);
  return error instanceof Error ? error.name : 'unknown error';
}

/**
 * Traces the blocks whose trace failed before once more: the internal transfers of those that answer now, and the
 * failures again, each one attempt further.
 * @example const { events, failures } = await retryUntracedBlocks({ client, chainId: 1, traceBlock, blocks, watched })
 */
export async function retryUntracedBlocks(p: {
  client: ChainRpcClient;
  chainId: number;
  traceBlock: BlockTracer;
  blocks: UntracedBlocks;
  /** Lower-case watched addresses. */
  watched: readonly string[];
}): Promise<{ events: DetectedEvent[]; failures: TraceAttempt[] }> {
  const watched = new Set(p.watched);
  const events: DetectedEvent[] = [];
  const failures: TraceAttempt[] = [];
  for (const [block, attempts] of p.blocks) {
    try {
      const read = await p.client.getBlock({ blockNumber: block });
      events.push(
        ...(await internalTransferEvents({
          traceBlock: p.traceBlock,
          chainId: p.chainId,
          block,
          transactions: read.transactions,
          timestamp: Number(read.timestamp) * 1000,
          watched,
        })),
      );
    } catch (error) {
      failures.push({ block, error, attempt: attempts + 1 });
    }
  }
  return { events, failures };
}

/**
 * The blocks to trace again after a step's failures, each logged with its chain, block and reason: one below
 * MAX_TRACE_ATTEMPTS stays (asked again next poll), one at it is dropped, its internal transfers skipped.
 * @example const untraced = untracedAfter([{ block: 120n, error, attempt: 1 }], { chainId: 1, logger })
 */
export function untracedAfter(
  failures: readonly TraceAttempt[],
  p: { chainId: number; logger: Logger },
): UntracedBlocks {
  const blocks: UntracedBlocks = new Map();
  for (const { block, error, attempt } of failures) {
    const fields = { chainId: p.chainId, block: Number(block), attempt, reason: failureReason(error) };
    if (attempt < MAX_TRACE_ATTEMPTS) {
      blocks.set(block, attempt);
      p.logger.warn(fields, 'webhooks: tracing a block failed; its internal ETH transfers are asked again next poll');
    } else {
      p.logger.warn(
        fields,
        `webhooks: tracing a block failed ${attempt} times; its internal ETH transfers are skipped (top-level ones were delivered)`,
      );
    }
  }
  return blocks;
}
