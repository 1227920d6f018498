import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { RouteTable, Tier } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { operationCharges, operationRoute, rootFieldNames } from '../../src/http/operation-charge.js';

const row = (field: string, tier: Tier, price?: string) =>
  ({
    kind: 'operation',
    id: `${field}-${tier}`,
    method: 'GET',
    path: `/api/${field}`,
    tag: 'Test',
    summary: field,
    tier,
    price,
    field,
  }) as const;

const TABLE = {
  rows: [
    row('cheap', 'light', '0.005'),
    row('dear', 'heavy', '0.02'),
    row('unpriced', 'medium'),
    row('status', 'free'),
    row('signIn', 'auth'),
    // One field behind two rows: the dearer row's price.
    row('profile', 'medium', '0.01'),
    row('profile', 'heavy', '0.02'),
  ],
} as unknown as RouteTable;

const charges = operationCharges(TABLE, '0.01');

function routeOf(query: string) {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operationRoute(operation, document, charges);
}

describe('what a /graphql operation costs, from the route table', () => {
  it('an operation costs its heaviest root field: tier and price', () => {
    expect(routeOf('{ cheap }')).toMatchObject({ tier: 'light', price: '0.005', path: '/graphql' });
    expect(routeOf('{ cheap dear }')).toMatchObject({ tier: 'heavy', price: '0.02', path: '/graphql' });
    expect(routeOf('{ profile }')).toMatchObject({ tier: 'heavy', price: '0.02' });
  });

  it('a row without a price and a root field without a row cost the configured default', () => {
    expect(routeOf('{ unpriced }')).toMatchObject({ tier: 'medium', price: '0.01' });
    expect(routeOf('{ cheap noRowAtAll }')).toMatchObject({ tier: 'medium', price: '0.01' });
  });

  it('free fields add nothing; an operation of free fields or introspection alone is free and not sold', () => {
    expect(routeOf('{ status cheap }')).toMatchObject({ tier: 'light', price: '0.005' });
    expect(routeOf('{ status __typename }')).toEqual({ tier: 'free' });
  });

  it('an operation with a field that is not sold per call (Auth tier) is not sold', () => {
    expect(routeOf('{ signIn cheap }')).toEqual({ tier: 'auth' });
  });

  it('fragments, named and inline, do not hide a root field', () => {
    expect(routeOf('{ ...F } fragment F on Query { cheap ... on Query { dear } }')).toMatchObject({
      tier: 'heavy',
      price: '0.02',
    });
    const document = parse('{ a ...F } fragment F on Query { b __typename }');
    expect([...rootFieldNames(document.definitions[0] as OperationDefinitionNode, document)]).toEqual(['a', 'b']);
  });

  it('on the real table: checksum costs its row price, with price history the dearer one', () => {
    const real = operationCharges(ROUTE_TABLE, '0.01');
    expect(real.prices.get('addressChecksum')).toBe('0.005');
    expect(real.prices.get('priceHistory')).toBe('0.05');
    expect(real.prices.get('siweVerify')).toBeNull();
  });
});
