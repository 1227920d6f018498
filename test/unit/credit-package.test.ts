import { describe, expect, it } from 'vitest';
import { creditPackage, creditPackageId, packagePriceUsd } from '../../src/arguments/credit-package.js';

describe('the credit packages (docs/api-contract.md#credit-packages)', () => {
  it('parse a package id and find its terms and x402 price', () => {
    const id = creditPackageId.parse('credits_1000');
    expect(creditPackage(id)).toEqual({ id: 'credits_1000', credits: 1000, price: '$7.00', perCall: '$0.007' });
    expect(packagePriceUsd(creditPackage('credits_100'))).toBe('0.90');
  });

  it('refuse an id no package has, naming the ones there are', () => {
    const refused = creditPackageId.safeParse('credits_7');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/credits_100.*credits_250.*credits_1000.*credits_5000/);
  });
});
