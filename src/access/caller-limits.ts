/** SPEC "Daily and per-minute limits by access mode". API keys: 250/day (SPEC also says 500+; see README). */
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
