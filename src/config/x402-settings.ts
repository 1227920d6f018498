import { z } from 'zod';
import { type ConfigArea, flagSchema, optional, type SettingsOf, urlSchema, withDefault } from './config-variable.js';
import { EVM_ADDRESS_PATTERN } from './evm-address-pattern.js';
import { DEMO_X402_RECEIVER } from './public-dev-keys.js';

/** USDC on Base: the asset x402 payments settle in (docs/api-contract.md#x402-payment). */
export const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The public x402 facilitator, used when X402_FACILITATOR_URL is not set and ETH_RPC_URL is. */
export const PUBLIC_X402_FACILITATOR = 'https://x402.org/facilitator';

/** x402 payments: who is paid, who verifies and settles, the default price. */
export const X402_AREA = {
  title: 'x402 payments',
  about: 'x402 payments in USDC on Base: who is paid, who verifies and settles, the default price',
  variables: {
    X402_RECEIVER: optional(
      z.string().regex(EVM_ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte hex address'),
      "address x402 payments go to: one you hold the key of; required when any part is live; anvil's public development accounts are always refused",
      { unset: `the demo receiver \`${DEMO_X402_RECEIVER}\`, whose key nobody holds (embedded default only)` },
    ),
    X402_FACILITATOR_URL: optional(
      urlSchema,
      'x402 facilitator (`/verify`, `/settle`); it must answer within `UPSTREAM_TIMEOUT_MS`, else the paid request is a 503',
      { unset: 'the embedded facilitator; with `ETH_RPC_URL` set, `https://x402.org/facilitator`' },
    ),
    X402_DEFAULT_PRICE_USD: withDefault(
      '0.01',
      z.string().regex(/^\d+(\.\d{1,6})?$/, 'must be a USD amount like 0.01'),
      'price of a counted route whose row names none',
    ),
    X402_STAGING_EMBEDDED_FACILITATOR: withDefault(
      'false',
      flagSchema,
      "staging only: `true` lets the embedded facilitator settle while other parts are live (on its private Base chain, where anvil's public accounts hold test USDC: every payment is free); unset, that configuration is refused",
    ),
  },
} as const satisfies ConfigArea;

export interface X402Config {
  x402: {
    /** Where payments go: X402_RECEIVER, or the demo receiver nobody holds the key of (embedded default only). */
    receiver: `0x${string}`;
    asset: `0x${string}`;
    network: 'base';
    chainId: 8453;
    /**
     * Verifies and settles payments (x402 facilitator API: POST /verify, /settle). Undefined: the embedded local
     * facilitator (settling on an embedded Base chain with test USDC), chosen when neither X402_FACILITATOR_URL nor
     * ETH_RPC_URL is set; with ETH_RPC_URL alone it is the public x402.org facilitator, never the local one.
     */
    facilitatorUrl: string | undefined;
    defaultPriceUsd: string;
    /** X402_STAGING_EMBEDDED_FACILITATOR: the embedded facilitator may settle while other parts are live. */
    stagingEmbeddedFacilitator: boolean;
  };
}

/** `ethRpcUrl`: a live Ethereum makes the public facilitator the default. */
export function x402Config(e: SettingsOf<typeof X402_AREA.variables>, ethRpcUrl: string | undefined): X402Config {
  return {
    x402: {
      receiver: (e.X402_RECEIVER ?? DEMO_X402_RECEIVER) as `0x${string}`,
      asset: USDC_ON_BASE,
      network: 'base',
      chainId: 8453,
      facilitatorUrl: e.X402_FACILITATOR_URL ?? (ethRpcUrl === undefined ? undefined : PUBLIC_X402_FACILITATOR),
      defaultPriceUsd: e.X402_DEFAULT_PRICE_USD,
      stagingEmbeddedFacilitator: e.X402_STAGING_EMBEDDED_FACILITATOR,
    },
  };
}
