import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { RouteTable, Tier } from '../../rest-compat/route-row.js';
import type { AccessRoute } from '../access/access-gate.js';
import { routePriceUsd, usdToUsdcUnits } from '../access/payment-catalog.js';
import { heavierTier } from '../access/tiers.js';

/** Root fields without a REST row are "most operations": medium (SPEC "Endpoint tiers"). */
const DEFAULT_FIELD_TIER: Tier = 'medium';

/** Each root field's tier, from the route table rows that expose it. */
export function fieldTiers(table: RouteTable): Map<string, Tier> {
  const tiers = new Map<string, Tier>();
  for (const row of table.rows) {
    if (row.kind !== 'operation') continue;
    const known = tiers.get(row.field);
    tiers.set(row.field, known ? heavierTier(known, row.tier) : row.tier);
  }
  return tiers;
}

/**
 * Each root field's price per call in USD, from the route table rows that expose it: the highest of their prices
 * (a row without one costs the configured default, an always-free row "0"), or null when one of those rows is not
 * sold per call (Auth tier: sign-in, key management, credit purchases).
 */
export function fieldPrices(table: RouteTable, defaultPriceUsd: string): Map<string, string | null> {
  const prices = new Map<string, string | null>();
  for (const row of table.rows) {
    if (row.kind !== 'operation') continue;
    const price = row.tier === 'free' ? '0' : (routePriceUsd(row, defaultPriceUsd) ?? null);
    const known = prices.get(row.field);
    prices.set(row.field, known === undefined ? price : known === null || price === null ? null : dearer(known, price));
  }
  return prices;
}

function dearer(a: string, b: string): string {
  return BigInt(usdToUsdcUnits(a)) >= BigInt(usdToUsdcUnits(b)) ? a : b;
}

/**
 * The root fields an operation selects, its fragments (named and inline) included; introspection fields (`__…`) are
 * left out. A fragment cannot hide a field from its charge.
 */
export function rootFieldNames(operation: OperationDefinitionNode, document?: DocumentNode): Set<string> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document?.definitions ?? [])
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const names = new Set<string>();
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (!sel.name.value.startsWith('__')) names.add(sel.name.value);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        collect(sel.selectionSet);
      } else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        // Validation has already refused unknown fragments; one not given here costs what an unknown field costs.
        if (fragment) collect(fragment.selectionSet);
        else names.add(`...${sel.name.value}`);
      }
    }
  };
  collect(operation.selectionSet);
  return names;
}

/** An operation is counted at the tier of its heaviest root field; introspection and __typename alone are free. */
export function operationTier(fields: Iterable<string>, tiers: Map<string, Tier>): Tier {
  let tier: Tier = 'free';
  for (const name of fields) tier = heavierTier(tier, tiers.get(name) ?? DEFAULT_FIELD_TIER);
  return tier;
}

/**
 * What one call of an operation costs with x402: the price of its dearest root field (a field without a REST row
 * costs the configured default) and that field's name; undefined when it is not sold per call (one of its fields is
 * not, or all of them are free).
 */
export function operationPrice(
  fields: Iterable<string>,
  prices: Map<string, string | null>,
  defaultPriceUsd: string,
): { priceUsd: string; field: string } | undefined {
  let priced: { priceUsd: string; field: string } | undefined;
  let highest = 0n;
  for (const field of fields) {
    const price = prices.has(field) ? prices.get(field)! : defaultPriceUsd;
    if (price === null) return undefined;
    const units = BigInt(usdToUsdcUnits(price));
    if (units > highest) {
      highest = units;
      priced = { priceUsd: price, field };
    }
  }
  return priced;
}

/** Root fields whose every row only ends the caller's session (logout). */
export function sessionEndingFields(table: RouteTable): Set<string> {
  const ending = new Set<string>();
  const other = new Set<string>();
  for (const row of table.rows) {
    if (row.kind === 'operation') (row.endsSession ? ending : other).add(row.field);
  }
  for (const field of other) ending.delete(field);
  return ending;
}

/** What the root fields of /graphql cost, from the route table (one source of truth with the REST rows). */
export interface OperationCharges {
  tiers: Map<string, Tier>;
  prices: Map<string, string | null>;
  defaultPriceUsd: string;
  sessionEnding: Set<string>;
}

/** The charges of every root field, computed once at start. */
export function operationCharges(table: RouteTable, defaultPriceUsd: string): OperationCharges {
  return {
    tiers: fieldTiers(table),
    prices: fieldPrices(table, defaultPriceUsd),
    defaultPriceUsd,
    sessionEnding: sessionEndingFields(table),
  };
}

/**
 * The route the access gate sees for one /graphql operation: its tier and, when it is for sale, its price under the
 * one path /graphql. An operation that cannot be resolved counts as Medium.
 * @example await access.admit(req, operationRoute(operation, document, charges))
 */
export function operationRoute(
  operation: OperationDefinitionNode | undefined,
  document: DocumentNode | undefined,
  charges: OperationCharges,
): AccessRoute {
  if (!operation) return { tier: DEFAULT_FIELD_TIER };
  const fields = rootFieldNames(operation, document);
  const tier = operationTier(fields, charges.tiers);
  const priced = operationPrice(fields, charges.prices, charges.defaultPriceUsd);
  // An operation that only logs out accepts a refreshed-away token, as POST /api/auth/siwe/logout does.
  const ending = fields.size > 0 && [...fields].every((f) => charges.sessionEnding.has(f)) ? { endsSession: true } : {};
  if (!priced) return { tier, ...ending };
  return {
    tier,
    ...ending,
    price: priced.priceUsd,
    path: '/graphql',
    summary: `GraphQL operation, priced at its heaviest root field (${priced.field})`,
  };
}
