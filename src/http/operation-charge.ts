import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { OperationRow, Tier } from '../../rest-compat/route-row.js';
import type { AccessRoute } from '../access/access-gate.js';
import { GRAPHQL_DISCOVERY } from '../access/bazaar-discovery.js';
import { routePriceUsd, usdToUsdcUnits } from '../access/payment-catalog.js';
import { heavierTier } from '../access/tiers.js';
import { covers, type FieldSelection, fragmentsOf, selectedFields } from './selection-coverage.js';

/** Root fields without a REST row are "most operations": medium (docs/api-contract.md#endpoint-tiers). */
const DEFAULT_FIELD_TIER: Tier = 'medium';

/** What a caller is charged for one root field: its tier and its price in USD ('0' free; null: not sold per call). */
export interface FieldCharge {
  tier: Tier;
  price: string | null;
}

/** One route row's charge for the root field it runs, and what it runs of that field. */
interface RowCharge extends FieldCharge {
  runs: FieldSelection[];
}

/** Root fields whose every row only ends the caller's session (logout). */
export function sessionEndingFields(rows: readonly OperationRow[]): Set<string> {
  const ending = new Set<string>();
  const other = new Set<string>();
  for (const row of rows) (row.endsSession ? ending : other).add(row.field);
  for (const field of other) ending.delete(field);
  return ending;
}

/** What the root fields of /graphql cost, from the route table (one source of truth with the REST rows). */
export interface OperationCharges {
  /** The rows that run each root field, cheapest first. */
  rows: Map<string, RowCharge[]>;
  /** Each root field's charge when no row runs the caller's selection of it: the heaviest and dearest of its rows. */
  fallback: Map<string, FieldCharge>;
  defaultPriceUsd: string;
  sessionEnding: Set<string>;
}

/** A route row with its GraphQL operation parsed (rest-compat's CompiledOperationRow). */
export interface ChargedRow {
  row: OperationRow;
  prepared: { document: DocumentNode; operation: OperationDefinitionNode };
}

function units(usd: string): bigint {
  return BigInt(usdToUsdcUnits(usd));
}

/** Lighter tier first (more calls a minute), then the lower price; a row not sold per call last. */
function cheaperFirst(a: FieldCharge, b: FieldCharge): number {
  if (a.tier !== b.tier) return heavierTier(a.tier, b.tier) === a.tier ? 1 : -1;
  if (a.price === null || b.price === null) return a.price === b.price ? 0 : a.price === null ? 1 : -1;
  const diff = units(a.price) - units(b.price);
  return diff === 0n ? 0 : diff > 0n ? 1 : -1;
}

/**
 * The charges of every root field, computed once at start from the rows that run them: a row's tier, its price (an
 * always-free row "0", a row without one the configured default, an Auth row null) and its selection of the field.
 */
export function operationCharges(rows: readonly ChargedRow[], defaultPriceUsd: string): OperationCharges {
  const byField = new Map<string, RowCharge[]>();
  for (const { row, prepared } of rows) {
    const runs = selectedFields([prepared.operation.selectionSet], fragmentsOf(prepared.document)).filter(
      (f) => f.name === row.field,
    );
    const price = row.tier === 'free' ? '0' : (routePriceUsd(row, defaultPriceUsd) ?? null);
    byField.set(row.field, [...(byField.get(row.field) ?? []), { tier: row.tier, price, runs }]);
  }
  const fallback = new Map<string, FieldCharge>();
  for (const [field, charges] of byField) {
    charges.sort(cheaperFirst);
    const tier = charges.map((c) => c.tier).reduce(heavierTier);
    const prices = charges.map((c) => c.price);
    const price = prices.includes(null) ? null : (prices as string[]).reduce((a, b) => (units(a) >= units(b) ? a : b));
    fallback.set(field, { tier, price });
  }
  return { rows: byField, fallback, defaultPriceUsd, sessionEnding: sessionEndingFields(rows.map((r) => r.row)) };
}

/**
 * What a caller's selection of a root field costs: the cheapest row that runs at least that selection (same field,
 * arguments it accepts, every sub-field), else the heaviest row of the field; a field no row runs is Medium at the
 * configured default price.
 * @example fieldCharge(selectedFields([parse('{ ensProfile(name: "a.eth") { name } }')…]), charges) // medium, like /api/ens/{name}
 */
export function fieldCharge(field: FieldSelection, charges: OperationCharges): FieldCharge {
  const rows = charges.rows.get(field.name);
  if (!rows) return { tier: DEFAULT_FIELD_TIER, price: charges.defaultPriceUsd };
  const covering = rows.find((row) => row.runs.some((run) => covers(run, field)));
  if (covering) return { tier: covering.tier, price: covering.price };
  return charges.fallback.get(field.name)!;
}

/**
 * The route the access gate sees for one /graphql operation: the heaviest tier of its root fields and, when it is for
 * sale, the highest of their prices under the one path /graphql (each field charged by {@link fieldCharge}; fragments
 * cannot hide a field). Introspection (`__schema`, `__type`: no row runs them) is Medium at the default price like any
 * field without a row; `__typename` alone is free; an operation that cannot be resolved is Medium.
 * @example await access.admit(req, operationRoute(operation, document, charges))
 */
export function operationRoute(
  operation: OperationDefinitionNode | undefined,
  document: DocumentNode | undefined,
  charges: OperationCharges,
): AccessRoute {
  if (!operation) return { tier: DEFAULT_FIELD_TIER };
  // Apollo Server keeps each parsed document it has seen: a repeated query brings the same operation node, and its
  // route depends on nothing else (not the caller, not the variables).
  let known = routesByOperation.get(charges);
  if (!known) routesByOperation.set(charges, (known = new WeakMap()));
  const cached = known.get(operation);
  if (cached) return cached;
  const route = computeOperationRoute(operation, document, charges);
  known.set(operation, route);
  return route;
}

const routesByOperation = new WeakMap<OperationCharges, WeakMap<OperationDefinitionNode, AccessRoute>>();

function computeOperationRoute(
  operation: OperationDefinitionNode,
  document: DocumentNode | undefined,
  charges: OperationCharges,
): AccessRoute {
  let tier: Tier = 'free';
  let forSale = true;
  let priced: { priceUsd: string; field: string } | undefined;
  let highest = 0n;
  const fields = selectedFields([operation.selectionSet], fragmentsOf(document));
  for (const field of fields) {
    const charge = fieldCharge(field, charges);
    tier = heavierTier(tier, charge.tier);
    if (charge.price === null) forSale = false;
    else if (units(charge.price) > highest) {
      highest = units(charge.price);
      priced = { priceUsd: charge.price, field: field.name };
    }
  }
  // An operation that only logs out accepts a refreshed-away token, as POST /api/auth/siwe/logout does.
  const ending =
    fields.length > 0 && fields.every((f) => charges.sessionEnding.has(f.name)) ? { endsSession: true } : {};
  if (!forSale || !priced) return { tier, ...ending };
  return {
    tier,
    ...ending,
    price: priced.priceUsd,
    path: '/graphql',
    summary: `GraphQL operation, priced at its heaviest root field (${priced.field})`,
    tag: 'GraphQL',
    discovery: GRAPHQL_DISCOVERY,
  };
}
