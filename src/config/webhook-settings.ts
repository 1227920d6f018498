import { z } from 'zod';
import { type ConfigArea, flagSchema, optional, type SettingsOf, withDefault } from './config-variable.js';

/** Webhooks (docs/webhooks.md): where they may point, and how events are detected and delivered. */
export const WEBHOOK_AREA = {
  title: 'Webhooks',
  about: 'Where webhooks may point, and how events are detected and delivered (docs/webhooks.md)',
  variables: {
    WEBHOOK_ALLOW_LOCAL_URLS: optional(
      flagSchema,
      '`true`: webhook URLs may be http and loopback, private or link-local targets ([webhooks](webhooks.md#urls))',
      { unset: '`true` with the embedded chain, `false` with `ETH_RPC_URL`' },
    ),
    WEBHOOK_CONFIRMATIONS: optional(
      z.coerce.number().int().min(0).max(128),
      'blocks a chain event waits behind the head before it is sent (reorg safety), 0 to 128',
      { unset: '`0` with the embedded chain, `3` with `ETH_RPC_URL`' },
    ),
    WEBHOOK_POLL_MS: withDefault(
      '1000',
      z.coerce.number().int().min(20).max(60_000),
      'how often the chain and the delivery outbox are polled (ms)',
    ),
    WEBHOOK_RETRY_BASE_MS: withDefault(
      '5000',
      z.coerce.number().int().min(10).max(3_600_000),
      'first retry delay of a failed delivery (ms), doubling after each failure, at most an hour apart, for 24 hours',
    ),
    WEBHOOK_SOURCE_POLL_MS: withDefault(
      '30000',
      z.coerce.number().int().min(100).max(3_600_000),
      'how often the prices (`price.alert`) and Farcaster (`farcaster.*`) sources are polled (ms)',
    ),
    WEBHOOK_TRACES: withDefault(
      'auto',
      z.enum(['auto', 'off']),
      '`auto`: blocks are traced for ETH contracts move (internal transfers) when the node answers `trace_block` or `debug_traceBlockByNumber`; `off`: never',
    ),
  },
} as const satisfies ConfigArea;

export interface WebhookConfig {
  /** Webhooks (docs/api-contract.md#events): where they may point, and how events are detected and delivered. */
  webhooks: {
    /** http and private, loopback and link-local targets accepted (development and tests). */
    allowLocalUrls: boolean;
    /** Blocks behind the head a chain event waits for before it is detected (reorg safety). */
    confirmations: number;
    /** How often the chain and the delivery outbox are polled, ms. */
    pollMs: number;
    /** First retry delay, ms; it doubles with each failure (with jitter), up to an hour, for 24 hours. */
    retryBaseMs: number;
    /** How often the prices (price.alert) and Farcaster (farcaster.*) sources are polled, ms. */
    sourcePollMs: number;
    /** Trace blocks for ETH that contracts move (internal transfers) when the node can; false: top-level ETH only. */
    traces: boolean;
  };
}

/** `embeddedEthereum`: the embedded chain serves Ethereum (no ETH_RPC_URL), which sets two defaults. */
export function webhookConfig(e: SettingsOf<typeof WEBHOOK_AREA.variables>, embeddedEthereum: boolean): WebhookConfig {
  return {
    webhooks: {
      allowLocalUrls: e.WEBHOOK_ALLOW_LOCAL_URLS ?? embeddedEthereum,
      confirmations: e.WEBHOOK_CONFIRMATIONS ?? (embeddedEthereum ? 0 : 3),
      pollMs: e.WEBHOOK_POLL_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      sourcePollMs: e.WEBHOOK_SOURCE_POLL_MS,
      traces: e.WEBHOOK_TRACES === 'auto',
    },
  };
}
