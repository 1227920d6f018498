import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiKeyId } from '../../src/arguments/account-arguments.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import {
  deliveriesLimit,
  deliveriesOffset,
  deliveryId,
  MAX_DELIVERIES_OFFSET,
  webhookId,
} from '../../src/arguments/webhook-arguments.js';

/** Parses like every surface does; a refused value throws `parameter <name>: <message>`. */
const parse = (schema: z.ZodType, name: string, value: unknown) => () => parseArgument(schema, name, value);

describe('the page of a webhook’s deliveries', () => {
  it('takes 1 to 100 (default 20) with the message every list gives', () => {
    expect(deliveriesLimit.parse(undefined)).toBe(20);
    expect(deliveriesLimit.parse('50')).toBe(50);
    for (const bad of ['0', '101', 'abc', '1.5']) {
      expect(parse(deliveriesLimit, 'limit', bad)).toThrow('parameter limit: must be an integer from 1 to 100');
    }
  });

  it('skips 0 to MAX_DELIVERIES_OFFSET (default 0) with the same wording', () => {
    expect(deliveriesOffset.parse(undefined)).toBe(0);
    expect(deliveriesOffset.parse(String(MAX_DELIVERIES_OFFSET))).toBe(MAX_DELIVERIES_OFFSET);
    for (const bad of ['-1', String(MAX_DELIVERIES_OFFSET + 1), 'x', '2.5']) {
      expect(parse(deliveriesOffset, 'offset', bad)).toThrow(
        `parameter offset: must be an integer from 0 to ${MAX_DELIVERIES_OFFSET}`,
      );
    }
  });
});

describe('the UUID ids of webhooks, deliveries and API keys', () => {
  it('accept a UUID in any case and name the id they expect otherwise', () => {
    const id = '3B241101-e2bb-4255-8caf-4136c566a962';
    for (const schema of [webhookId, deliveryId, apiKeyId]) expect(schema.parse(id)).toBe(id);
    expect(parse(webhookId, 'id', 'not-a-uuid')).toThrow('parameter id: must be a webhook id (UUID)');
    expect(parse(deliveryId, 'deliveryId', `${id}0`)).toThrow('parameter deliveryId: must be a delivery id (UUID)');
    expect(parse(apiKeyId, 'id', id.replaceAll('-', ''))).toThrow('parameter id: must be an API key id (UUID)');
  });
});
