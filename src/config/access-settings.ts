import { z } from 'zod';
import { type ConfigArea, optional, type SettingsOf, urlSchema, withDefault } from './config-variable.js';

const limit = (value: string, meaning: string) => withDefault(value, z.coerce.number().int().min(1), meaning);

/** Sign-in and the limits of each access mode (docs/api-contract.md#limits-by-access-mode). */
export const ACCESS_AREA = {
  title: 'Sign-in and limits',
  about: 'Sign-in with Ethereum, and the limits of each access mode (docs/api-contract.md#limits-by-access-mode)',
  variables: {
    JWT_SECRET: optional(
      z.string().min(32, 'must be at least 32 characters'),
      'session signing secret (≥ 32 characters, never logged); required when any part is live, else generated once and shared by every instance on the store',
      { unset: 'generated, kept in the store (embedded default only)', secret: true },
    ),
    SIWE_DOMAIN: optional(
      z.string().regex(/^[^\s/?#]+$/, 'must be a host[:port] authority'),
      'the domain the SIWE challenge asks wallets to sign; never taken from a request (which one wins: [access](access.md#sign-in-with-ethereum))',
      { unset: 'from `PUBLIC_BASE_URL`, else the listen address' },
    ),
    SIWE_URI: optional(urlSchema, 'the URI the SIWE challenge asks wallets to sign', {
      unset: 'from `PUBLIC_BASE_URL`, else the listen address',
    }),
    ANONYMOUS_DAILY_LIMIT: limit('100', 'calls a day of one anonymous caller (per IP)'),
    ANONYMOUS_PER_MINUTE_LIMIT: limit('30', 'calls a minute of one anonymous caller (per IP)'),
    ANONYMOUS_IPV6_PREFIX: withDefault(
      '64',
      z.coerce.number().int().min(16).max(128),
      'anonymous IPv6 callers are counted per network of this many leading bits (a /64 is one subscriber)',
    ),
    SIWE_DAILY_LIMIT: limit('200', 'calls a day of one SIWE session (per wallet)'),
    SIWE_PER_MINUTE_LIMIT: limit('60', 'calls a minute of one SIWE session (per wallet)'),
    API_KEY_DAILY_LIMIT: limit('250', 'calls a day of one API key (set on the key at creation)'),
    API_KEY_PER_MINUTE_LIMIT: limit('60', 'calls a minute of one API key (set on the key at creation)'),
    API_KEY_CONCURRENCY: limit('10', 'requests of one API key in flight at once'),
  },
} as const satisfies ConfigArea;

export interface AccessConfig {
  /** Leading bits of an IPv6 address that make one anonymous caller (ANONYMOUS_IPV6_PREFIX). */
  anonymousIpv6Prefix: number;
  anonymousLimits: { daily: number; perMinute: number };
  siweLimits: { daily: number; perMinute: number };
  /** Limits a new API key is created with, and how many of its requests may run at once. */
  apiKeyLimits: { daily: number; perMinute: number; concurrency: number };
  auth: {
    /** Signs session tokens; undefined: one generated once and kept in the store (embedded default only). */
    jwtSecret: string | undefined;
    /** Domain SIWE challenges name; undefined: from PUBLIC_BASE_URL, else the listen address (src/access/siwe-audience.ts). */
    siweDomain: string | undefined;
    /** URI SIWE challenges name; undefined: from PUBLIC_BASE_URL, else the listen address. */
    siweUri: string | undefined;
  };
}

export function accessConfig(e: SettingsOf<typeof ACCESS_AREA.variables>): AccessConfig {
  return {
    anonymousIpv6Prefix: e.ANONYMOUS_IPV6_PREFIX,
    anonymousLimits: { daily: e.ANONYMOUS_DAILY_LIMIT, perMinute: e.ANONYMOUS_PER_MINUTE_LIMIT },
    siweLimits: { daily: e.SIWE_DAILY_LIMIT, perMinute: e.SIWE_PER_MINUTE_LIMIT },
    apiKeyLimits: {
      daily: e.API_KEY_DAILY_LIMIT,
      perMinute: e.API_KEY_PER_MINUTE_LIMIT,
      concurrency: e.API_KEY_CONCURRENCY,
    },
    auth: { jwtSecret: e.JWT_SECRET, siweDomain: e.SIWE_DOMAIN, siweUri: e.SIWE_URI },
  };
}
