import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { batchAskedAt, batchInnerCallHeader } from '../../src/http/batch-inner-call.js';
import { markAsked } from '../../src/sources/rpc/asked-at.js';

/** A request as fastify hands it to hooks: injected in process (a batch's inner request) or read from a socket. */
const request = (headers: Record<string, string>, injected: boolean) =>
  ({ headers, raw: injected ? { isLightMyRequest: true } : {} }) as unknown as FastifyRequest;

describe('the inner requests of a batch are asked when the batch was (docs/api-contract.md#data-freshness)', () => {
  it('an inner request carries the arrival of the batch it belongs to', () => {
    const batchArrived = markAsked();
    expect(batchAskedAt(request(batchInnerCallHeader(batchArrived), true))).toBe(batchArrived);
  });

  it('a caller cannot claim an earlier arrival: without the inner-call mark, or from a socket, the header is not believed', () => {
    const { 'x-batch-inner-call': mark, ...claim } = batchInnerCallHeader(1);
    expect(mark).toBeDefined();
    expect(batchAskedAt(request(claim, true))).toBeUndefined();
    expect(batchAskedAt(request({ ...claim, 'x-batch-inner-call': 'f'.repeat(64) }, true))).toBeUndefined();
    expect(batchAskedAt(request(batchInnerCallHeader(1), false))).toBeUndefined();
    expect(batchAskedAt(request({}, true))).toBeUndefined();
  });
});
