import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { deliveriesLimit, deliveriesOffset, MAX_DELIVERIES_OFFSET } from '../../src/arguments/webhook-arguments.js';

/** The message parseArgument gives for a refused value, or 'accepted'. */
const refusal = (schema: z.ZodType, name: string, value: unknown): string => {
  try {
    parseArgument(schema, name, value);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('the page of a webhook’s deliveries', () => {
  it('takes 1 to 100 (default 20) with the message every list gives', () => {
    expect(deliveriesLimit.parse(undefined)).toBe(20);
    expect(deliveriesLimit.parse('50')).toBe(50);
    for (const bad of ['0', '101', 'abc', '1.5']) {
      expect(refusal(deliveriesLimit, 'limit', bad)).toBe('parameter limit: must be an integer from 1 to 100');
    }
  });

  it('skips 0 to MAX_DELIVERIES_OFFSET (default 0) with the same wording', () => {
    expect(deliveriesOffset.parse(undefined)).toBe(0);
    expect(deliveriesOffset.parse(String(MAX_DELIVERIES_OFFSET))).toBe(MAX_DELIVERIES_OFFSET);
    for (const bad of ['-1', String(MAX_DELIVERIES_OFFSET + 1), 'x', '2.5']) {
      expect(refusal(deliveriesOffset, 'offset', bad)).toBe(
        `parameter offset: must be an integer from 0 to ${MAX_DELIVERIES_OFFSET}`,
      );
    }
  });
});
