import { CHAINS, type ChainKey } from './chains.js';
import { type ConfigArea, optional, type SettingsOf, urlSchema } from './config-variable.js';

/** A live JSON-RPC URL per supported chain. */
export const CHAIN_AREA = {
  title: 'Chains',
  about:
    'A live JSON-RPC URL per chain; without one Ethereum and Base are embedded anvil chains, the others answer 503',
  variables: {
    ETH_RPC_URL: optional(
      urlSchema,
      'Ethereum JSON-RPC; without it the embedded chain serves ([the embedded default](embedded-default.md))',
      { unset: 'embedded anvil', secret: true },
    ),
    BASE_RPC_URL: optional(
      urlSchema,
      'Base JSON-RPC (also routes `*.base.eth` names and Base primary names to Basenames on Base)',
      { unset: 'embedded local Base chain', secret: true },
    ),
    ARBITRUM_RPC_URL: optional(
      urlSchema,
      'Arbitrum JSON-RPC ([the supported chains](api-contract.md#supported-chains)); unset: Arbitrum answers 503',
      { secret: true },
    ),
    OPTIMISM_RPC_URL: optional(urlSchema, 'Optimism JSON-RPC; unset: Optimism answers 503', { secret: true }),
    POLYGON_RPC_URL: optional(urlSchema, 'Polygon JSON-RPC; unset: Polygon answers 503', { secret: true }),
  },
} as const satisfies ConfigArea;

/** The variable that names each chain's live RPC. */
export const CHAIN_RPC_VARIABLE: Readonly<Record<ChainKey, keyof typeof CHAIN_AREA.variables>> = {
  ethereum: 'ETH_RPC_URL',
  base: 'BASE_RPC_URL',
  arbitrum: 'ARBITRUM_RPC_URL',
  optimism: 'OPTIMISM_RPC_URL',
  polygon: 'POLYGON_RPC_URL',
};

export interface ChainEndpoint {
  key: ChainKey;
  id: number;
  name: string;
  /** A live JSON-RPC URL, or undefined where the embedded local chain serves (Ethereum and Base) or none. */
  rpcUrl: string | undefined;
}

export interface ChainConfig {
  chains: Record<ChainKey, ChainEndpoint>;
}

export function chainConfig(e: SettingsOf<typeof CHAIN_AREA.variables>): ChainConfig {
  const chains = Object.fromEntries(
    CHAINS.map((c) => [c.key, { key: c.key, id: c.id, name: c.name, rpcUrl: e[CHAIN_RPC_VARIABLE[c.key]] }]),
  ) as Record<ChainKey, ChainEndpoint>;
  return { chains };
}
