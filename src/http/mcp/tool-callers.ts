import type { AccessMode } from '../../access/caller-limits.js';
import type { AgentTool } from './agent-tools.js';

/**
 * Whether a caller identified as `mode` may see and call a tool: any tool but a Write-tier one, which takes the
 * callers its row takes (a SIWE session; for a wallet's rows also one of its API keys).
 * @example mayCall('wallet', 'api_key') // true: POST /api/webhooks takes a key
 */
export function mayCall(needs: AgentTool['needs'], mode: AccessMode | undefined): boolean {
  if (needs === undefined) return true;
  return mode === 'siwe' || (needs === 'wallet' && mode === 'api_key');
}
