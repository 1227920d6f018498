import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import type { AccountServicesParams } from './account-services-params.js';
import { keyUsage } from './key-usage.js';
import { creditsUsedCounter, DAY_MS, globalDailyCounter, windowResetsAt } from './quota-plan.js';
import { iso, requireSession } from './require-session.js';

export type UsageServices = Pick<AccountServices, 'me' | 'myUsage' | 'usage'>;

/**
 * What a caller may read of itself: the signed-in wallet's profile and usage, and any caller's quota today
 * (docs/api-contract.md#usage). Reads counters, consumes nothing.
 * @example const { usage } = usageServices({ ...params, now: Date.now })
 */
export function usageServices(p: AccountServicesParams & { now: () => number }): UsageServices {
  const { store, now } = p;
  return {
    async me(caller) {
      const { wallet, session } = requireSession(caller);
      const [record, keys] = await Promise.all([store.getWallet(wallet), store.listApiKeys(wallet)]);
      return {
        address: wallet,
        firstSeenAt: record ? iso(record.firstSeenAt) : null,
        lastSeenAt: record ? iso(record.lastSeenAt) : null,
        sessionExpiresAt: iso(session.expiresAt),
        apiKeyCount: keys.length,
        tier: 'siwe',
        limits: caller.limits,
      };
    },

    async myUsage(caller) {
      const { wallet } = requireSession(caller);
      const at = now();
      const [{ counts }, keys] = await Promise.all([
        store.readQuota({ counters: [globalDailyCounter(caller.key, caller.limits)], now: at }),
        store.listApiKeys(wallet),
      ]);
      const used = counts[0] ?? 0;
      return {
        address: wallet,
        tier: 'siwe',
        used,
        limit: caller.limits.daily,
        remaining: Math.max(0, caller.limits.daily - used),
        perMinuteLimit: caller.limits.perMinute,
        resetsAt: iso(windowResetsAt(at, DAY_MS)),
        apiKeys: (await keyUsage(store, keys, at)).map(({ key, usageToday, creditsUsedToday }) => ({
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          usageToday,
          creditsUsedToday,
          credits: key.credits,
        })),
      };
    },

    async usage(caller) {
      const at = now();
      const counters = [globalDailyCounter(caller.key, caller.limits)];
      if (caller.apiKeyId) counters.push(creditsUsedCounter(caller.apiKeyId));
      const [{ counts }, balance] = await Promise.all([
        store.readQuota({ counters, now: at }),
        caller.apiKeyId ? store.getCredits(caller.apiKeyId) : Promise.resolve(0),
      ]);
      const used = counts[0] ?? 0;
      return {
        used,
        limit: caller.limits.daily,
        remaining: Math.max(0, caller.limits.daily - used),
        credits: caller.apiKeyId ? { balance, usedToday: counts[1] ?? 0 } : null,
        tier: caller.mode,
        resetsAt: iso(windowResetsAt(at, DAY_MS)),
      };
    },
  };
}
