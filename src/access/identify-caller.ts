import type { AccessMode } from './caller-limits.js';

/** Who is calling, as far as limits are concerned. */
export interface Caller {
  mode: AccessMode;
  /** Stable key the counters are kept under: the IP, the wallet, or the key id. */
  key: string;
}

/** What the access layer reads from a request; the HTTP layer fills it. */
export interface AccessRequest {
  /** Client IP: the socket address, or X-Forwarded-For only when TRUST_PROXY says so (fastify resolves it). */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Anonymous callers are counted per IP address (SPEC "Daily and per-minute limits by access mode"). */
export function identifyCaller(req: AccessRequest): Caller {
  return { mode: 'anonymous', key: `ip:${req.ip}` };
}
