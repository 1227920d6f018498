import { buildSchema, parse, type ValidationRule, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { maxAliasesRule, maxCostRule, maxDepthRule } from '../../src/gateway/operation-limits.js';
import { countSelectionReads } from '../helpers/counted-selection-reads.js';

const schema = buildSchema(`
  type Query { node: Node }
  type Node { id: String child: Node }
`);
const nested = (levels: number) => `{ ${open(levels)} }`;
function open(levels: number): string {
  let q = 'id';
  for (let i = 2; i < levels; i++) q = `child { ${q} }`;
  return `node { ${q} }`;
}
const errorsOf = (query: string, rule = maxDepthRule(6)) =>
  validate(schema, parse(query), [rule]).map((e) => e.message);

/** The errors `rule` reports, and how many times each selection set of the document was read on average. */
function measured(query: string, rule: ValidationRule) {
  const counted = countSelectionReads(parse(query));
  const errors = validate(schema, counted.document, [rule]).map((e) => e.message);
  return { errors, readsPerSet: counted.reads() / counted.selectionSets };
}

describe('operation depth limit', () => {
  it('allows an operation exactly 6 levels deep', () => {
    expect(errorsOf(nested(6))).toEqual([]);
  });

  it('refuses an operation 7 levels deep', () => {
    expect(errorsOf(nested(7))).toEqual(['Query depth 7 exceeds the maximum of 6']);
  });

  it('counts depth through named and inline fragments', () => {
    const viaFragments = `{ node { child { ...F } } } fragment F on Node { child { ... on Node { child { child { child { id } } } } } }`;
    expect(errorsOf(viaFragments)).toEqual(['Query depth 7 exceeds the maximum of 6']);
  });

  it('does not count introspection, so GraphiQL can load the schema', () => {
    const introspection = '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }';
    expect(errorsOf(introspection)).toEqual([]);
  });

  it('survives a cyclic fragment without looping (another rule reports the cycle)', () => {
    expect(() => errorsOf('{ node { ...A } } fragment A on Node { child { ...A } }')).not.toThrow();
  });

  it('measures a fragment bomb (each fragment spreading the one before twice) in linear time', () => {
    const deep = 'node { child { child { child { child { child { ...F80 } } } } } }';
    const [allowed, refused] = [
      measured(fragmentBomb(80), maxDepthRule(6)),
      measured(fragmentBomb(80, deep), maxDepthRule(6)),
    ];
    expect(allowed.errors).toEqual([]);
    expect(refused.errors).toEqual(['Query depth 7 exceeds the maximum of 6']);
    // Each selection set read once by graphql's own walk and once by the rule, never once per path (2^80).
    expect(allowed.readsPerSet).toBeLessThanOrEqual(2);
    expect(refused.readsPerSet).toBeLessThanOrEqual(2);
  });
});

/** `{ node { ...F<n> } }` where F<i> spreads F<i-1> twice: 2^n paths in under 1000 tokens. */
function fragmentBomb(n: number, selection = `node { ...F${n} }`): string {
  let source = `{ ${selection} } fragment F0 on Node { id }`;
  for (let i = 1; i <= n; i++) source += ` fragment F${i} on Node { ...F${i - 1} ...F${i - 1} }`;
  return source;
}

describe('operation cost limit (GraphQL Armor cost: object 2, scalar 1, x 1.5 per level)', () => {
  const costErrors = (query: string, max: number) => errorsOf(query, maxCostRule(max));

  it('allows an operation at the limit and refuses one above it, as a 400-style validation error', () => {
    // node (object 2) + id (scalar 1 x 1.5) = 3.5
    expect(costErrors('{ node { id } }', 3.5)).toEqual([]);
    expect(costErrors('{ node { id } }', 3)).toEqual(['Query Cost limit of 3 exceeded, found 3.5.']);
    const [error] = validate(schema, parse('{ node { id } }'), [maxCostRule(3)]);
    expect(error?.extensions).toEqual({ code: 'INVALID_PARAMETER' });
  });

  it('counts fields behind aliases and fragments, each time they are selected', () => {
    const aliased = `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: node { id child { id } }`).join(' ')} }`;
    expect(costErrors(aliased, 100)).toEqual([]);
    expect(costErrors(aliased, 80)).toEqual([expect.stringMatching(/^Query Cost limit of 80 exceeded/)]);
    expect(costErrors('{ node { ...F } } fragment F on Node { child { id } }', 3)).toHaveLength(1);
  });

  it('leaves __schema to the access rules (introspection is counted as a Medium call)', () => {
    expect(costErrors('{ __schema { types { fields { name } } } }', 1)).toEqual([]);
  });

  it('prices a fragment bomb at what it would select (2^80 fields), reading each fragment once', () => {
    const bomb = measured(fragmentBomb(80), maxCostRule(1000));
    expect(bomb.errors).toEqual([expect.stringMatching(/^Query Cost limit of 1000 exceeded/)]);
    expect(bomb.readsPerSet).toBeLessThanOrEqual(2);
  });
});

describe('alias limit', () => {
  const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: node { id }`).join(' ')} }`;
  it('allows 15 aliases', () => {
    expect(errorsOf(aliases(15), maxAliasesRule(15))).toEqual([]);
  });
  it('refuses the 16th alias, once', () => {
    expect(errorsOf(aliases(20), maxAliasesRule(15))).toEqual(['Document has more than 15 aliases']);
  });
});
