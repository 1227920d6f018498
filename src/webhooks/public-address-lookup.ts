import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isNonPublicAddress } from './webhook-url.js';

/** A webhook host that resolved to an address the service must not call (at the moment the connection was made). */
export class NonPublicTargetError extends Error {
  override name = 'NonPublicTargetError';
  constructor(readonly host: string) {
    super(`${host} resolves to a private, loopback or link-local address`);
  }
}

type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * The `lookup` of the webhook agents: the name is resolved once, refused when any of its addresses is not public, and
 * the connection is made to exactly the addresses that were checked. A separate check before the request would be a
 * second lookup, which a rebinding name answers with 127.0.0.1 (ssrf-req-filter and undici's `connect` hook do the same).
 * @example new https.Agent({ keepAlive: true, lookup: publicAddressLookup() })
 */
export function publicAddressLookup(
  // Read at call time, so the system resolver can be replaced in tests.
  resolve: Resolve = (hostname, options, callback) => dns.lookup(hostname, options, callback),
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0 || addresses.some((a) => isNonPublicAddress(a.address))) {
        return callback(new NonPublicTargetError(hostname), '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
