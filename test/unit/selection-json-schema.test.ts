import { buildSchema, type GraphQLObjectType, type GraphQLScalarType, parse } from 'graphql';
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

  it('requires every field in a component as in a partial selection: GraphQL answers each one, null or not', () => {
    const whole = '{ profile(name: "a") { name address status updatedAt records { key value } tags secret } }';
    const fields = ['name', 'address', 'status', 'updatedAt', 'records', 'tags', 'secret'];
    expect(derive(whole).components.Profile?.required).toEqual(fields);
    expect(derive(whole, true).body.required).toEqual(fields);
  });

  it('a field under @skip or @include may be absent, so it is not required', () => {
    const { body } = derive('query q($s: Boolean!) { profile(name: "a") { name address @include(if: $s) } }');
    expect(body.required).toEqual(['name']);
  });
});

describe("a field's jsonSchema extension (type-graphql's @Extensions) adds what GraphQL types cannot say", () => {
  const declared = buildSchema(/* GraphQL */ `
    type Entry { key: String! value: String! }
    type Challenge { nonce: String! expiresAt: String! kind: String entries: [Entry!]! stamps: [String!] }
    type Query { challenge: Challenge! }
  `);
  const fields = (declared.getType('Challenge') as GraphQLObjectType).getFields();
  fields.expiresAt!.extensions = { jsonSchema: { format: 'date-time' } };
  fields.kind!.extensions = { jsonSchema: { enum: ['users'] } };
  fields.entries!.extensions = { jsonSchema: { example: [{ key: 'url', value: 'https://a.example' }] } };
  fields.stamps!.extensions = { jsonSchema: { format: 'date-time', examples: [['2025-01-01T00:00:00.000Z']] } };
  const challenge = (source: string, inline = false) => {
    const graphql = graphqlJsonSchemas({ schema: declared });
    const body = selectionJsonSchema({
      schema: declared,
      document: parse(source),
      field: 'challenge',
      graphql,
      inline,
    });
    return { body, components: graphql.components };
  };

  it('puts format and enum on the leaf (a nullable enum admits null, list items carry the format), examples on the value', () => {
    const { body } = challenge('{ challenge { expiresAt kind stamps entries { key value } } }', true);
    expect(body.properties).toEqual({
      expiresAt: { type: 'string', format: 'date-time' },
      kind: { type: ['string', 'null'], enum: ['users', null] },
      stamps: {
        type: ['array', 'null'],
        items: { type: 'string', format: 'date-time' },
        examples: [['2025-01-01T00:00:00.000Z']],
      },
      entries: expect.objectContaining({ type: 'array', example: [{ key: 'url', value: 'https://a.example' }] }),
    });
  });

  it("writes the same facts into the type's component", () => {
    const { components } = challenge('{ challenge { nonce expiresAt kind entries { key value } stamps } }');
    const properties = components.Challenge?.properties as Record<string, Record<string, unknown>>;
    expect(properties.expiresAt).toEqual({ type: 'string', format: 'date-time' });
    expect(properties.kind?.enum).toEqual(['users', null]);
    expect(properties.entries?.example).toEqual([{ key: 'url', value: 'https://a.example' }]);
  });

  it('a row shape turns a declared example as it turns the value: pick keeps it, entriesAsMap makes it a map', () => {
    const { body } = challenge('{ challenge { nonce expiresAt entries { key value } } }', true);
    const shaped = shapes(pick('expiresAt', 'entries'), entriesAsMap(['entries'], 'key', 'value')).schema(body);
    expect(shaped.properties).toEqual({
      expiresAt: { type: 'string', format: 'date-time' },
      entries: { type: 'object', additionalProperties: { type: 'string' }, example: { url: 'https://a.example' } },
    });
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
