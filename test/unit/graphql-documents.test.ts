import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GraphqlDocuments } from '../../src/http/graphql-documents.js';
import { namedOperationIn } from '../../src/observability/graphql-request-observation.js';

const schema = buildSchema('type Query { a: String, b: String }');

/** Texts whose operation label /metrics reads from the text: named, anonymous, several, commented, invalid. */
const TEXTS = [
  '{ a }',
  'query Prices { a }',
  '  query\tIndented { a }',
  '{ a }\nquery Second { b }',
  '# query Commented\nquery Real { a }',
  'query First { a }\nquery Second { b }',
  'query { a }',
  '{ a } query Inline { b }',
  'query Broken { a',
  'mutation Nope { a }',
];

describe('GraphqlDocuments', () => {
  it('labels a text by the same named operation whether its document is cached or not', () => {
    const documents = new GraphqlDocuments({ schema, maxTokens: 1000, rules: [] });
    const uncached = TEXTS.map((text) => documents.namedOperationIn(text));
    expect(uncached).toEqual(TEXTS.map(namedOperationIn));
    for (const text of TEXTS) documents.prepare(text);
    expect(TEXTS.map((text) => documents.namedOperationIn(text))).toEqual(uncached);
    expect(uncached.slice(0, 6)).toEqual([undefined, 'Prices', 'Indented', 'Second', 'Real', 'First']);
  });

  it('keeps only valid documents, and counts their bytes', () => {
    const documents = new GraphqlDocuments({ schema, maxTokens: 1000, rules: [] });
    expect('errors' in documents.prepare('query Broken { a')).toBe(true);
    expect(documents.heldBytes).toBe(0);
    const valid = documents.prepare('query Prices { a }');
    expect('errors' in valid ? undefined : valid.namedOperation).toBe('Prices');
    expect(documents.heldBytes).toBeGreaterThan('query Prices { a }'.length * 2);
    expect(documents.prepare('query Prices { a }')).toBe(valid);
  });
});
