import { z } from 'zod';

/** A prepaid credit package: its id, how many credits it adds, its price and the price per call, in dollars. */
export interface CreditPackageTerms {
  id: string;
  credits: number;
  /** Dollars as the contract writes them, e.g. `$0.90`. */
  price: string;
  perCall: string;
}

/** docs/api-contract.md#credit-packages: the four packages, prices in dollars as the contract writes them. */
export const CREDIT_PACKAGES = [
  { id: 'credits_100', credits: 100, price: '$0.90', perCall: '$0.009' },
  { id: 'credits_250', credits: 250, price: '$2.00', perCall: '$0.008' },
  { id: 'credits_1000', credits: 1000, price: '$7.00', perCall: '$0.007' },
  { id: 'credits_5000', credits: 5000, price: '$30.00', perCall: '$0.006' },
] as const satisfies readonly CreditPackageTerms[];

/** The id of one of CREDIT_PACKAGES, as `creditPackageId` parses it. */
export type CreditPackageId = (typeof CREDIT_PACKAGES)[number]['id'];

const BY_ID = Object.fromEntries(CREDIT_PACKAGES.map((p) => [p.id, p])) as Record<CreditPackageId, CreditPackageTerms>;

/**
 * The `packageId` argument of a purchase: one of the packages' ids, the one rule the REST parameter and the GraphQL
 * argument parse with.
 * @example creditPackageId.parse('credits_100') // 'credits_100'
 */
export const creditPackageId = z
  .enum(CREDIT_PACKAGES.map((p) => p.id) as [CreditPackageId, ...CreditPackageId[]])
  .describe('credit package id');

/**
 * The package a parsed id names.
 * @example creditPackage('credits_100').credits // 100
 */
export function creditPackage(id: CreditPackageId): CreditPackageTerms {
  return BY_ID[id];
}

/**
 * The package's price in USD without the dollar sign, as x402 offers name prices.
 * @example packagePriceUsd(creditPackage('credits_100')) // '0.90'
 */
export function packagePriceUsd(pkg: CreditPackageTerms): string {
  return pkg.price.replace(/^\$/, '');
}
