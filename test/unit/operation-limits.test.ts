import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { maxAliasesRule, maxDepthRule } from '../../src/gateway/operation-limits.js';

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
