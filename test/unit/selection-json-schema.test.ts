import { buildSchema, type GraphQLScalarType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { graphqlJsonSchemas } from '../../rest-compat/openapi/graphql-json-schema.js';
import { selectionJsonSchema } from '../../rest-compat/openapi/selection-json-schema.js';
import { entriesAsMap, omitWhenNull, pick, shapes } from '../../rest-compat/response-shape.js';

const schema = buildSchema(/* GraphQL */ `
  scalar DateTimeISO
  enum Status { ACTIVE PAUSED }
  "A text record"
  type TextRecord { key: String! value: String! }
  "A profile"
  type Profile {
    "the name"
    name: String!
    address: String
    status: Status!
    updatedAt: DateTimeISO
    records: [TextRecord!]!
    tags: [String]
    secret: String
  }
  type Query { profile(name: String!): Profile }
`);
(schema.getType('DateTimeISO') as GraphQLScalarType).description = 'ISO 8601';

const derive = (source: string, inline = false) => {
  const graphql = graphqlJsonSchemas({ schema });
  return {
    body: selectionJsonSchema({ schema, document: parse(source), field: 'profile', graphql, inline }),
    components: graphql.components,
  };
};

describe('the 200 schema of an operation row is derived from its selection set', () => {
  it('documents only the selected fields, under their aliases, with nullability, lists, enums and custom scalars', () => {
    const { body, components } = derive(
      'query q($n: String!) { profile(name: $n) { label: name address status updatedAt tags records { key } } }',
    );
    expect(body).toEqual({
      type: 'object',
      description: 'A profile',
      required: ['label', 'address', 'status', 'updatedAt', 'tags', 'records'],
      properties: {
        label: { type: 'string', description: 'the name' },
        address: { type: ['string', 'null'] },
        status: expect.objectContaining({ enum: ['ACTIVE', 'PAUSED'] }),
        updatedAt: { type: ['string', 'null'], format: 'date-time', description: 'ISO 8601' },
        tags: { type: ['array', 'null'], items: { type: ['string', 'null'] } },
        records: {
          type: 'array',
          items: {
            type: 'object',
            description: 'A text record',
            required: ['key'],
            properties: { key: { type: 'string' } },
          },
        },
      },
    });
    expect(components).toEqual({});
  });

  it("refers to a type's component where the selection is the whole type, and writes it out when asked to", () => {
    const whole = '{ profile(name: "a") { name address status updatedAt records { key value } tags secret } }';
    expect(derive(whole).body).toEqual({ $ref: '#/components/schemas/Profile' });
    expect(derive(whole).components.Profile).toMatchObject({ type: 'object', description: 'A profile' });
    expect(derive(whole, true).body).toMatchObject({ type: 'object', properties: { records: { type: 'array' } } });
  });

  it('a field under @skip or @include may be absent, so it is not required', () => {
    const { body } = derive('query q($s: Boolean!) { profile(name: "a") { name address @include(if: $s) } }');
    expect(body.required).toEqual(['name']);
  });
});

describe('a row shape carries its value transform and its schema transform together', () => {
  const { body } = derive('{ profile(name: "a") { name records { key value } secret } }', true);
  const value = { name: 'a.eth', records: [{ key: 'url', value: 'https://a.example' }], secret: null };

  it('pick keeps the named fields, in order, in the value and the schema', () => {
    const shape = pick('secret', 'name');
    expect(JSON.stringify(shape.value(value))).toBe('{"secret":null,"name":"a.eth"}');
    expect(Object.keys(shape.schema(body).properties as object)).toEqual(['secret', 'name']);
  });

  it('entriesAsMap answers a key/value list as a map, and documents a map of the value type', () => {
    const shape = entriesAsMap(['records'], 'key', 'value');
    expect(shape.value(value)).toEqual({ ...value, records: { url: 'https://a.example' } });
    expect((shape.schema(body).properties as Record<string, unknown>).records).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });

  it('omitWhenNull leaves out a null field and documents it as optional and non-null', () => {
    const shape = shapes(omitWhenNull('secret'), entriesAsMap(['records'], 'key', 'value'));
    expect(shape.value(value)).toEqual({ name: 'a.eth', records: { url: 'https://a.example' } });
    expect(JSON.stringify(shape.value({ ...value, secret: 's' }))).toMatch(/"secret":"s"}$/);
    const documented = shape.schema(body);
    expect(documented.required).toEqual(['name', 'records']);
    expect((documented.properties as Record<string, unknown>).secret).toEqual({ type: 'string' });
  });
});
