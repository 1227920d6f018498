import type { AppConfig } from '../config/config.js';

/**
 * docs/api-contract.md#limits-by-access-mode. API keys: 250/day (the specification also says 500+:
 * docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent).
 */
export type AccessMode = 'anonymous' | 'siwe' | 'api_key';

export interface ModeLimits {
  daily: number;
  perMinute: number;
}

export const DEFAULT_MODE_LIMITS: Record<AccessMode, ModeLimits> = {
  anonymous: { daily: 100, perMinute: 30 },
  siwe: { daily: 200, perMinute: 60 },
  api_key: { daily: 250, perMinute: 60 },
};

/** docs/api-contract.md#limits-by-access-mode: an API key may have 10 requests in flight at once. */
export const DEFAULT_API_KEY_CONCURRENCY = 10;

/** Every limit the access layer applies. API keys carry their own daily and per-minute limits, set at creation. */
export interface AccessLimits {
  modes: Record<AccessMode, ModeLimits>;
  /** Requests one API key may have in flight at once (across instances). */
  apiKeyConcurrency: number;
}

/**
 * The limits the configuration asks for (docs/api-contract.md#limits-by-access-mode by default; operators and tests may
 * change them).
 * @example accessLimitsFromConfig(loadConfig({})).modes.siwe // { daily: 200, perMinute: 60 }
 */
export function accessLimitsFromConfig(config: AppConfig): AccessLimits {
  return {
    modes: {
      anonymous: config.anonymousLimits,
      siwe: config.siweLimits,
      api_key: { daily: config.apiKeyLimits.daily, perMinute: config.apiKeyLimits.perMinute },
    },
    apiKeyConcurrency: config.apiKeyLimits.concurrency,
  };
}
