import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiKeyId } from '../../src/arguments/account-arguments.js';
import { MAX_ENS_NAME_LENGTH } from '../../src/arguments/ens-name.js';
import { MAX_FID } from '../../src/arguments/farcaster-limits.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import {
  deliveriesLimit,
  deliveriesOffset,
  deliveryId,
  MAX_DELIVERIES_OFFSET,
  webhookId,
} from '../../src/arguments/webhook-arguments.js';
import { webhookFilters } from '../../src/arguments/webhook-body.js';

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

describe('the filters of a webhook', () => {
  const filters = (value: unknown) => () => parseArgument(webhookFilters, 'filters', value);

  it('follow a price by a ticker the token table knows, upper-cased', () => {
    expect(webhookFilters.parse({ prices: [{ symbol: 'eth', above: 1 }] }).prices).toEqual([
      { symbol: 'ETH', above: 1 },
    ]);
    expect(filters({ prices: [{ symbol: 'NOPE', below: 1 }] })).toThrow(
      'parameter filters.prices.0.symbol: unknown token symbol: NOPE; a price alert follows a token the price routes quote, such as ETH or BTC',
    );
    expect(filters({ prices: [{ symbol: 'not valid!', below: 1 }] })).toThrow(
      'parameter filters.prices.0.symbol: must be 1–15 letters, digits, dots or dashes',
    );
  });

  it('watch FIDs of the FID rule’s range, 1 to MAX_FID', () => {
    expect(webhookFilters.parse({ fids: [1, MAX_FID] }).fids).toEqual([1, MAX_FID]);
    for (const bad of [0, 1.5, MAX_FID + 1, '3']) {
      expect(filters({ fids: [bad] })).toThrow(`parameter filters.fids.0: must be an integer from 1 to ${MAX_FID}`);
    }
  });

  it('take names and *.parent patterns as long as the ENS name rule allows', () => {
    const long = `${'a'.repeat(250)}.${'b'.repeat(250)}.eth`;
    expect(webhookFilters.parse({ names: [long, `*.${long}`] }).names).toEqual([long, `*.${long}`]);
    expect(filters({ names: [`${'a'.repeat(250)}.${long}`] })).toThrow(
      `parameter filters.names.0: ENS name must be 1 to ${MAX_ENS_NAME_LENGTH} characters`,
    );
  });
});
