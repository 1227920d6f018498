import { describe, expect, it } from 'vitest';
import { plainJsonSchema } from '../../rest-compat/openapi/plain-json-schema.js';

describe('an OpenAPI schema said in plain JSON Schema (x402 bazaar discovery)', () => {
  it("OpenAPI's int32 becomes the bounds it names; a bound the schema sets itself wins", () => {
    expect(plainJsonSchema({ type: 'integer', format: 'int32' })).toEqual({
      type: 'integer',
      minimum: -2_147_483_648,
      maximum: 2_147_483_647,
    });
    expect(plainJsonSchema({ type: 'integer', format: 'int32', minimum: 1 })).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 2_147_483_647,
    });
  });

  it('width formats JSON Schema does not name are dropped; its own formats are kept', () => {
    expect(plainJsonSchema({ type: 'number', format: 'float' })).toEqual({ type: 'number' });
    expect(plainJsonSchema({ type: 'integer', format: 'int64' })).toEqual({ type: 'integer' });
    expect(plainJsonSchema({ type: 'string', format: 'date-time' })).toEqual({ type: 'string', format: 'date-time' });
  });

  it("OpenAPI's singular example becomes examples, at every depth; a property named example stays a property", () => {
    const schema = {
      type: 'object',
      properties: {
        example: { type: 'object', properties: { n: { type: 'integer', format: 'int32', example: 3 } } },
      },
      $defs: { Price: { type: 'string', example: '1.5' } },
    };
    expect(plainJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        example: {
          type: 'object',
          properties: { n: { type: 'integer', minimum: -2_147_483_648, maximum: 2_147_483_647, examples: [3] } },
        },
      },
      $defs: { Price: { type: 'string', examples: ['1.5'] } },
    });
  });

  it('instance data (enum, const, default, examples) is kept as it is, even where it looks like a schema', () => {
    const data = { format: 'int32', example: 1 };
    expect(plainJsonSchema({ const: data, default: data, enum: [data], examples: [data] })).toEqual({
      const: data,
      default: data,
      enum: [data],
      examples: [data],
    });
  });
});
