import type { Logger } from 'pino';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import {
  type BlockTraceMethod,
  type BlockTracer,
  blockInternalValueMoves,
  detectBlockTraceMethod,
} from './block-value-traces.js';

/**
 * How a step traces blocks for ETH moved by contracts: null when it does not (traces off, or the node answers no trace
 * method). The node is asked once, the first time a block range needs a trace, and the answer is logged either way;
 * while it is not known (the question failed for now), every block that needs a trace fails with that failure, to be
 * asked again next step.
 * @example const tracer = lazyBlockTracer({ client, chainId: 1, traces: true, logger }); const traceBlock = await tracer(toBlock)
 */
export function lazyBlockTracer(p: {
  client: ChainRpcClient;
  chainId: number;
  traces: boolean;
  logger: Logger;
}): (block: bigint) => Promise<BlockTracer | null> {
  /** undefined until asked. */
  let traceMethod: BlockTraceMethod | null | undefined = p.traces ? undefined : null;
  return async (block) => {
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
}
