import { describe, expect, it } from 'vitest';
import { DEFAULT_MODE_LIMITS } from '../../src/access/caller-limits.js';
import { bindingCounter, quotaPlan } from '../../src/access/quota-plan.js';

const limitsOf = (plan: ReturnType<typeof quotaPlan>) => ({
  daily: plan.daily.map((c) => c.limit),
  perMinute: plan.perMinute.map((c) => c.limit),
});
const anonymous = { key: 'ip:203.0.113.7', mode: 'anonymous' as const, limits: DEFAULT_MODE_LIMITS.anonymous };
const session = { key: 'wallet:0xab', mode: 'siwe' as const, limits: DEFAULT_MODE_LIMITS.siwe };

describe('how mode and tier limits combine (the limits of the contract, and its choices)', () => {
  it("the mode's limits are caps across tiers; a tier's own limit is counted only where it is lower", () => {
    expect(limitsOf(quotaPlan(anonymous, 'light'))).toEqual({ daily: [100], perMinute: [30] });
    expect(limitsOf(quotaPlan(anonymous, 'medium'))).toEqual({ daily: [100], perMinute: [30] });
    expect(limitsOf(quotaPlan(anonymous, 'heavy'))).toEqual({ daily: [100, 25], perMinute: [30, 10] });
    expect(limitsOf(quotaPlan(anonymous, 'auth'))).toEqual({ daily: [100, 50], perMinute: [30, 20] });
    expect(limitsOf(quotaPlan(anonymous, 'write'))).toEqual({ daily: [100, 10], perMinute: [30, 5] });
    expect(limitsOf(quotaPlan(session, 'light'))).toEqual({ daily: [200], perMinute: [60] });
    expect(limitsOf(quotaPlan(session, 'heavy'))).toEqual({ daily: [200, 50], perMinute: [60, 10] });
  });

  it("a configured per-minute limit scales the tier figures by the same factor as the contract's", () => {
    const raised = { ...anonymous, limits: { daily: 100, perMinute: 300 } };
    expect(limitsOf(quotaPlan(raised, 'heavy')).perMinute).toEqual([300, 100]);
    const key = { key: 'key:1', mode: 'api_key' as const, limits: { daily: 250, perMinute: 6 } };
    expect(limitsOf(quotaPlan(key, 'heavy')).perMinute).toEqual([6, 1]);
  });

  it("an API key's counters are durable, other callers' are not", () => {
    const key = { key: 'key:1', mode: 'api_key' as const, limits: DEFAULT_MODE_LIMITS.api_key };
    expect(quotaPlan(key, 'heavy').counters.every((c) => c.durable)).toBe(true);
    expect(quotaPlan(anonymous, 'heavy').counters.some((c) => c.durable)).toBe(false);
  });

  it('the binding limit is the one with the fewest calls left', () => {
    const { daily } = quotaPlan(anonymous, 'heavy');
    expect(bindingCounter(daily, [1, 1])).toEqual({ limit: 25, used: 1 });
    expect(bindingCounter(daily, [90, 3])).toEqual({ limit: 100, used: 90 });
    expect(bindingCounter(daily, [85, 10])).toEqual({ limit: 25, used: 10 });
  });
});
