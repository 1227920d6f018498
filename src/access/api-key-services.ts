import { randomUUID } from 'node:crypto';
import type { ListedApiKey } from '../../subgraphs/account/types.js';
import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import { ApiError, notFound } from '../errors/api-error.js';
import type { AccountServicesParams } from './account-services-params.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secrets.js';
import { keyUsage } from './key-usage.js';
import { iso, requireSession } from './require-session.js';

/** A wallet's keys each get their own free daily quota, so their number is bounded. */
export const MAX_KEYS_PER_WALLET = 10;

export type ApiKeyServices = Pick<AccountServices, 'createApiKey' | 'listApiKeys' | 'rotateApiKey' | 'deleteApiKey'>;

/**
 * A signed-in wallet's API keys: create, list with today's usage, rotate, delete (docs/api-contract.md#api-key).
 * Only hashes are stored; a key's secret is shown once, when it is made.
 * @example const { createApiKey } = apiKeyServices({ ...params, now: Date.now })
 */
export function apiKeyServices(p: AccountServicesParams & { now: () => number }): ApiKeyServices {
  const { store, now } = p;
  return {
    async createApiKey(caller, name) {
      const { wallet } = requireSession(caller);
      if ((await store.listApiKeys(wallet)).length >= MAX_KEYS_PER_WALLET) {
        throw new ApiError('CONFLICT', `a wallet may hold at most ${MAX_KEYS_PER_WALLET} API keys; delete one first`);
      }
      const key = generateApiKey();
      const record = await store.createApiKey({
        id: randomUUID(),
        wallet,
        name,
        keyHash: hashApiKey(key),
        prefix: displayPrefix(key),
        createdAt: now(),
        dailyLimit: p.limits.modes.api_key.daily,
        minuteLimit: p.limits.modes.api_key.perMinute,
      });
      return {
        success: true,
        key: {
          id: record.id,
          name: record.name,
          key,
          createdAt: iso(record.createdAt),
          credits: record.credits,
          dailyLimit: record.dailyLimit,
          minuteLimit: record.minuteLimit,
        },
      };
    },

    async listApiKeys(caller) {
      const { wallet } = requireSession(caller);
      const at = now();
      const usage = await keyUsage(store, await store.listApiKeys(wallet), at);
      const keys: ListedApiKey[] = usage.map(({ key, usageToday }) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        createdAt: iso(key.createdAt),
        lastUsedAt: key.lastUsedAt === null ? null : iso(key.lastUsedAt),
        credits: key.credits,
        usageToday,
        dailyLimit: key.dailyLimit,
        minuteLimit: key.minuteLimit,
      }));
      return { keys };
    },

    async rotateApiKey(caller, id) {
      const { wallet } = requireSession(caller);
      const key = generateApiKey();
      const rotated = await store.rotateApiKey({
        id,
        wallet,
        keyHash: hashApiKey(key),
        prefix: displayPrefix(key),
        now: now(),
      });
      if (!rotated) throw notFound('no API key with this id belongs to this wallet');
      return {
        success: true,
        key: { id: rotated.id, key, note: 'The previous key is refused from now on; this one is shown only once.' },
      };
    },

    async deleteApiKey(caller, id) {
      const { wallet } = requireSession(caller);
      if (!(await store.deleteApiKey({ id, wallet, now: now() }))) {
        throw notFound('no API key with this id belongs to this wallet');
      }
      return {
        success: true,
        message: 'API key deleted; its remaining credits are destroyed (not refundable, not transferable)',
      };
    },
  };
}
