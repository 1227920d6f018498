import { z } from 'zod';
import { invalidConfiguration } from './config-error.js';
import { type ConfigArea, optional, type SettingsOf, urlSchema, withDefault } from './config-variable.js';
import { type TrustProxy, trustProxySetting } from './trust-proxy.js';

/** `*`, or comma-separated origins (`https://app.example.com`), each exactly as a browser sends it in `Origin`. */
function corsOrigins(value: string, ctx: z.RefinementCtx): '*' | string[] {
  const origins = [
    ...new Set(
      value
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    ),
  ];
  if (origins.includes('*')) return '*';
  for (const origin of origins) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = undefined;
    }
    if (parsed !== origin)
      ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin like https://app.example.com` });
  }
  if (origins.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one origin, or *' });
  return origins;
}

/** Comma-separated host names (`api.example.com`, no scheme or port), lower-cased. */
function mcpAllowedHosts(value: string, ctx: z.RefinementCtx): string[] {
  const hosts = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  for (const host of hosts) {
    if (!/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(host))
      ctx.addIssue({ code: 'custom', message: `"${host}" is not a host name like api.example.com` });
  }
  return [...new Set(hosts)];
}

const timeoutMs = z.coerce.number().int().min(100).max(3_600_000);

/** Where the server listens and who may call it how: the HTTP front door. */
export const HTTP_AREA = {
  title: 'HTTP',
  about: 'Where the server listens, who may call it from a browser, and what one connection may hold',
  variables: {
    PORT: withDefault(
      '3000',
      z.coerce.number().int().min(0).max(65535),
      'HTTP port (`0`: any free port, printed on start)',
    ),
    HOST: optional(
      z.string(),
      'interface to listen on; the embedded default stays on loopback, a [live configuration](operators.md#going-live) listens on every interface',
      { unset: '`127.0.0.1`; `0.0.0.0` when any part is live' },
    ),
    PUBLIC_BASE_URL: optional(
      urlSchema,
      'absolute URL callers reach the service at: x402 `resource` URLs, OpenAPI `servers`, SIWE domain/URI',
      { unset: 'from the request' },
    ),
    CORS_ORIGINS: withDefault(
      '*',
      z.string().transform((v, ctx) => corsOrigins(v, ctx)),
      'browser origins allowed to call (CORS), comma-separated (`https://app.example.com`); `*` = any, never with credentials',
    ),
    MCP_ALLOWED_HOSTS: optional(
      z.string().transform((v, ctx) => mcpAllowedHosts(v, ctx)),
      "host names `/mcp` answers (its `Host` and `Origin`) besides loopback and `PUBLIC_BASE_URL`'s, comma-separated: DNS-rebinding protection",
    ),
    TRUST_PROXY: withDefault(
      'false',
      z.string().transform((v, ctx) => trustProxySetting(v, ctx)),
      'proxies believed about the client IP (`X-Forwarded-For`): `true`, `false`, a hop count (`1`) or addresses and CIDRs, also `loopback`, `linklocal`, `uniquelocal`; the caller is the rightmost address not trusted ([operators](operators.md#running-behind-a-proxy))',
    ),
    MAX_CONNECTIONS: withDefault(
      '4096',
      z.coerce.number().int().min(1).max(1_000_000),
      'connections open at once; one more is answered 503 `SERVICE_UNAVAILABLE` with `Connection: close` (keep it below `ulimit -n`)',
    ),
    MAX_CONNECTIONS_PER_ADDRESS: withDefault(
      '256',
      z.coerce.number().int().min(1).max(1_000_000),
      "of `MAX_CONNECTIONS`, how many one client address (an IPv6 caller's `ANONYMOUS_IPV6_PREFIX` network) may hold; one more is answered as past `MAX_CONNECTIONS`; a trusted proxy's connections are not capped (it speaks for many clients)",
    ),
    FIRST_BYTE_TIMEOUT_MS: withDefault(
      '3000',
      z.coerce.number().int().min(50).max(3_600_000),
      'a new connection that has sent no byte by then is closed, so silent sockets do not hold places for the whole headers timeout (bounded by `HEADERS_TIMEOUT_MS`)',
    ),
    KEEP_ALIVE_TIMEOUT_MS: withDefault(
      '30000',
      timeoutMs,
      "how long a keep-alive connection may sit idle between requests; behind a balancer, above its idle timeout (65000 for AWS ALB's 60 s)",
    ),
    HEADERS_TIMEOUT_MS: withDefault(
      '10000',
      timeoutMs,
      "time a client has to send a request's headers (at most `REQUEST_TIMEOUT_MS`); past it 408 and closed",
    ),
    REQUEST_TIMEOUT_MS: withDefault(
      '30000',
      timeoutMs,
      'time a client has to send a whole request; past it 408 and closed',
    ),
  },
} as const satisfies ConfigArea;

export interface HttpConfig {
  port: number;
  host: string;
  /** Absolute base URL callers reach us at; used in x402 `resource` and CCIP gateway URLs. */
  publicBaseUrl: string | undefined;
  /** Which proxies are believed about the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Origins browsers may call from (CORS_ORIGINS): `*` or a list. */
  corsOrigins: '*' | string[];
  /** Host names /mcp answers (Host and Origin), besides loopback and PUBLIC_BASE_URL's: DNS-rebinding protection. */
  mcpAllowedHosts: string[];
  /** What one client connection may hold (docs/operators.md#running-behind-a-proxy). */
  connections: {
    /** Open at once; one more is answered 503 SERVICE_UNAVAILABLE and closed. */
    max: number;
    /** Open at once from one client address (not a trusted proxy's); one more is answered as past `max`. */
    maxPerAddress: number;
    /** A new connection that has sent no byte by then is closed, ms. */
    firstByteTimeoutMs: number;
    /** Idle between two requests on a keep-alive connection, ms. */
    keepAliveTimeoutMs: number;
    /** To send a request's headers, ms. */
    headersTimeoutMs: number;
    /** To send a whole request (headers and body), ms. */
    requestTimeoutMs: number;
  };
}

/**
 * The HTTP part of the configuration; `live`: some part is live, so an unset HOST listens on every interface (a
 * deployment), where the embedded default stays on loopback.
 */
export function httpConfig(e: SettingsOf<typeof HTTP_AREA.variables>, live: boolean): HttpConfig {
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw invalidConfiguration([
      'HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS (the headers are part of the request)',
    ]);
  }
  return {
    port: e.PORT,
    host: e.HOST ?? (live ? '0.0.0.0' : '127.0.0.1'),
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    mcpAllowedHosts: e.MCP_ALLOWED_HOSTS ?? [],
    connections: {
      max: e.MAX_CONNECTIONS,
      maxPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
      // The first byte is part of the headers: a shorter headers timeout bounds it too.
      firstByteTimeoutMs: Math.min(e.FIRST_BYTE_TIMEOUT_MS, e.HEADERS_TIMEOUT_MS),
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    },
  };
}
