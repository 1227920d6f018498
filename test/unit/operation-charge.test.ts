import { type DocumentNode, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { OperationRow, Tier } from '../../rest-compat/route-row.js';
import { type ChargedRow, operationCharges, operationRoute } from '../../src/http/operation-charge.js';
import { countSelectionReads } from '../helpers/counted-selection-reads.js';

function operationOf(source: string | DocumentNode) {
  const document = typeof source === 'string' ? parse(source) : source;
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return { document, operation };
}

/** A route row running `operation` (default: the bare field), as compileRouteTable prepares it. */
const row = (field: string, tier: Tier, price?: string, operation = `{ ${field} }`): ChargedRow => {
  const { document, operation: op } = operationOf(operation);
  return {
    row: {
      kind: 'operation',
      id: `${field}-${tier}`,
      method: 'GET',
      path: `/api/${field}`,
      tag: 'Test',
      summary: field,
      tier,
      price,
      field,
    } as OperationRow,
    prepared: { document, operation: op! },
  };
};

const PROFILE = 'query ($name: String!) { profile(name: $name) { name address records { key value } } }';
const FULL_PROFILE =
  'query ($name: String!) { profile(name: $name) { name address records { key value } wallet { balance casts(limit: 5) { text } } } }';

const ROWS = [
  row('cheap', 'light', '0.005'),
  row('dear', 'heavy', '0.02'),
  row('unpriced', 'medium'),
  row('status', 'free'),
  row('signIn', 'auth'),
  // One field behind two rows, as ensProfile is behind /api/ens/{name} (Medium) and /api/profile/full (Heavy).
  row('profile', 'heavy', '0.02', FULL_PROFILE),
  row('profile', 'medium', '0.01', PROFILE),
  // A cheap row that fixes an argument, a dear one that takes any value.
  row('feed', 'light', '0.005', '{ feed(limit: 5) { text } }'),
  row('feed', 'heavy', '0.02', 'query ($limit: Int!) { feed(limit: $limit) { text } }'),
];

const charges = operationCharges(ROWS, '0.01');

function routeOf(query: string) {
  const { document, operation } = operationOf(query);
  return operationRoute(operation, document, charges);
}

describe('what a /graphql operation costs, from the route table', () => {
  it('an operation costs its heaviest root field: tier and price', () => {
    expect(routeOf('{ cheap }')).toMatchObject({ tier: 'light', price: '0.005', path: '/graphql' });
    expect(routeOf('{ cheap dear }')).toMatchObject({ tier: 'heavy', price: '0.02', path: '/graphql' });
  });

  it('a field behind several rows costs what the cheapest row that runs the same selection costs', () => {
    expect(routeOf('{ profile(name: "a.eth") { name } }')).toMatchObject({ tier: 'medium', price: '0.01' });
    expect(routeOf('{ profile(name: "a.eth") { name records { value } } }')).toMatchObject({
      tier: 'medium',
      price: '0.01',
    });
    expect(routeOf('query ($n: String!) { profile(name: $n) { address } }')).toMatchObject({ tier: 'medium' });
    // The wallet is only in the full profile's selection: that row's charge.
    expect(routeOf('{ profile(name: "a.eth") { name wallet { balance } } }')).toMatchObject({
      tier: 'heavy',
      price: '0.02',
    });
  });

  it('fragments cannot make a selection look cheaper than it is', () => {
    expect(
      routeOf(
        '{ profile(name: "a.eth") { ...P } } fragment P on Profile { name ... on Profile { wallet { balance } } }',
      ),
    ).toMatchObject({ tier: 'heavy', price: '0.02' });
  });

  it('a selection no row runs costs the heaviest and dearest row of the field', () => {
    expect(routeOf('{ profile(name: "a.eth") { unknownToRows } }')).toMatchObject({ tier: 'heavy', price: '0.02' });
    expect(routeOf('{ profile(name: "a.eth") { wallet { casts(limit: 100) { text } } } }')).toMatchObject({
      tier: 'heavy',
      price: '0.02',
    });
  });

  it('an argument a row fixes covers that value only; a row variable covers any value', () => {
    expect(routeOf('{ feed(limit: 5) { text } }')).toMatchObject({ tier: 'light', price: '0.005' });
    expect(routeOf('{ feed(limit: 100) { text } }')).toMatchObject({ tier: 'heavy', price: '0.02' });
    expect(routeOf('query ($l: Int!) { feed(limit: $l) { text } }')).toMatchObject({ tier: 'heavy' });
    expect(routeOf('{ feed { text } }')).toMatchObject({ tier: 'heavy' });
  });

  it('a row without a price and a root field without a row cost the configured default', () => {
    expect(routeOf('{ unpriced }')).toMatchObject({ tier: 'medium', price: '0.01' });
    expect(routeOf('{ cheap noRowAtAll }')).toMatchObject({ tier: 'medium', price: '0.01' });
  });

  it('free fields and __typename add nothing; an operation of them alone is free and not sold', () => {
    expect(routeOf('{ status cheap }')).toMatchObject({ tier: 'light', price: '0.005' });
    expect(routeOf('{ status __typename }')).toEqual({ tier: 'free' });
  });

  it('introspection is counted like any Medium operation, at the default price', () => {
    expect(routeOf('{ __schema { queryType { name } } }')).toMatchObject({ tier: 'medium', price: '0.01' });
    expect(routeOf('{ __type(name: "Query") { name } }')).toMatchObject({ tier: 'medium', price: '0.01' });
    expect(routeOf('{ ...I } fragment I on Query { __schema { types { name } } }')).toMatchObject({ tier: 'medium' });
    expect(routeOf('{ cheap __schema { types { name } } }')).toMatchObject({ tier: 'medium', price: '0.01' });
  });

  it('an operation with a field that is not sold per call (Auth tier) is not sold', () => {
    expect(routeOf('{ signIn cheap }')).toEqual({ tier: 'auth' });
  });

  it('fragments, named and inline, do not hide a root field', () => {
    expect(routeOf('{ ...F } fragment F on Query { cheap ... on Query { dear } }')).toMatchObject({
      tier: 'heavy',
      price: '0.02',
    });
  });

  it('a fragment spread many times over is read once per level: a fragment bomb is charged in no time', () => {
    let source = '{ ...F40 cheap } fragment F0 on Query { dear }';
    for (let i = 1; i <= 40; i++) source += ` fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`;
    const counted = countSelectionReads(parse(source));
    const { document, operation } = operationOf(counted.document);
    expect(operationRoute(operation!, document, charges)).toMatchObject({ tier: 'heavy', price: '0.02' });
    // Each selection set read once (twice at most), never once per path (2^40).
    expect(counted.reads()).toBeLessThanOrEqual(2 * counted.selectionSets);
  });
});
