import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { z } from 'zod';

/**
 * Which proxies in front of the service are believed about the client address (X-Forwarded-For), as Fastify's
 * `trustProxy` and Express's `trust proxy` take it: none, every hop, the nearest `hops` hops, or the hops whose
 * address is in `ranges`. The caller is the rightmost address not trusted.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'all' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; ranges: readonly string[] };

/** Express's and proxy-addr's names for address ranges (`TRUST_PROXY=loopback,uniquelocal`). */
export const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An IP address (as `net.isIP` takes it, no shorthand like `127.1`) or CIDR range, as `addr/bits`; else undefined. */
function asRange(entry: string): string | undefined {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || isIP(address ?? '') === 0) return undefined;
  const parsed = ipaddr.parse(address!);
  const max = parsed.kind() === 'ipv4' ? 32 : 128;
  if (bits === undefined) return `${parsed.toString()}/${max}`;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return undefined;
  return `${parsed.toString()}/${Number(bits)}`;
}

/**
 * TRUST_PROXY: `true`, `false`, a hop count (`1`), or comma-separated addresses, CIDR ranges and the names
 * loopback, linklocal, uniquelocal (`127.0.0.0/8,10.0.0.0/8`); anything else is refused at start.
 * @example trustProxySetting('loopback, 10.0.0.0/8', ctx) // { kind: 'addresses', ranges: ['127.0.0.0/8', '::1/128', '10.0.0.0/8'] }
 */
export function trustProxySetting(value: string, ctx: z.RefinementCtx): TrustProxy {
  const text = value.trim().toLowerCase();
  if (text === 'true') return { kind: 'all' };
  if (text === 'false' || text === '0') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) ctx.addIssue({ code: 'custom', message: 'a hop count is at most 100' });
    return { kind: 'hops', hops };
  }
  const ranges: string[] = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const named = NAMED_RANGES[entry];
    const range = named ? undefined : asRange(entry);
    if (named) ranges.push(...named);
    else if (range) ranges.push(range);
    else
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not true, false, a hop count, an IP address, a CIDR range or loopback/linklocal/uniquelocal`,
      });
  }
  if (ranges.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one address or range' });
  return { kind: 'addresses', ranges: [...new Set(ranges)] };
}
