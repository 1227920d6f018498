import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** This process's prefix: 48 random bits, so ids of instances started together do not collide. */
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let sequence = 0;

/**
 * Keeps a caller's X-Request-Id when it is a sane token (so traces join up), else makes a new one: the process
 * prefix and a sequence number (`Qm3x_a9Z-1k2`), unique across instances and cheaper than a UUID per request.
 */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && ACCEPTABLE.test(given)) return given;
  return newRequestId();
}

/** A new request id of this process (for answers written before a request object exists, too). */
export function newRequestId(): string {
  sequence += 1;
  return `${PROCESS_PREFIX}-${sequence.toString(36)}`;
}
