import { createHash } from 'node:crypto';

/**
 * A stable event id from what identifies the fact (type, chain, transaction, log index …): detecting the same fact
 * again, on any instance, gives the same id, so the outbox records it once.
 * @example eventId('ens.transfer', 1, '0xabc…', 3) // 'evt_3f1c…'
 */
export function eventId(...parts: (string | number | bigint)[]): string {
  return `evt_${createHash('sha256').update(parts.map(String).join('|')).digest('hex').slice(0, 32)}`;
}
