import type { ChainKey } from '../../config/chains.js';
import { serviceUnavailable } from '../../errors/api-error.js';
import type { SourceMode } from '../source-health.js';

/**
 * Which chains an upstream HTTP API answers for: every supported chain when live; only Ethereum when it is the local
 * replay (the embedded chain is Ethereum, and the recorded replies describe it).
 */
export function servedChains(mode: SourceMode): readonly ChainKey[] {
  return mode === 'live' ? ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon'] : ['ethereum'];
}

/**
 * Throws 503 for a chain the source does not answer for.
 * @example requireServedChain('etherscan', 'local', 'base') // throws SERVICE_UNAVAILABLE
 */
export function requireServedChain(source: string, mode: SourceMode, chain: ChainKey): void {
  if (!servedChains(mode).includes(chain)) {
    throw serviceUnavailable(`${source} is not configured for ${chain} (the local replay answers for ethereum only)`);
  }
}
