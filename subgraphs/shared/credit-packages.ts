import { z } from 'zod';
import type { CreditPackage } from '../account/types.js';

/** SPEC "Credit package": the four packages, prices in dollars as SPEC writes them. */
export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: 'credits_100', credits: 100, price: '$0.90', perCall: '$0.009' },
  { id: 'credits_250', credits: 250, price: '$2.00', perCall: '$0.008' },
  { id: 'credits_1000', credits: 1000, price: '$7.00', perCall: '$0.007' },
  { id: 'credits_5000', credits: 5000, price: '$30.00', perCall: '$0.006' },
];

const CREDIT_PACKAGE_IDS = CREDIT_PACKAGES.map((p) => p.id) as [string, ...string[]];

/**
 * The `packageId` argument of a purchase: one of the packages' ids (the REST parameter and the GraphQL argument).
 * @example creditPackageId.parse('credits_100')
 */
export const creditPackageId = z.enum(CREDIT_PACKAGE_IDS).describe('credit package id');

/** The package's price in USD without the dollar sign ("0.90"), as x402 offers name prices. */
export function packagePriceUsd(pkg: CreditPackage): string {
  return pkg.price.replace(/^\$/, '');
}
