import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../rest-compat/openapi/openapi-types.js';
import { portableJsonSchema } from '../../rest-compat/openapi/portable-json-schema.js';

const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 };

describe('an OpenAPI schema said in portable JSON Schema (MCP tool schemas, x402 discovery)', () => {
  it("OpenAPI's example becomes examples at every depth; a property named example stays a property", () => {
    expect(
      portableJsonSchema({
        type: 'object',
        properties: { example: { type: 'string', example: 'alice.eth' } },
        $defs: { Price: { type: 'string', example: '1.5', examples: ['2'] } },
      }),
    ).toEqual({
      type: 'object',
      properties: { example: { type: 'string', examples: ['alice.eth'] } },
      $defs: { Price: { type: 'string', examples: ['1.5', '2'] } },
    });
  });

  it("OpenAPI's int32 becomes the bounds it names (a bound the schema sets wins); the widths JSON Schema lacks go", () => {
    expect(portableJsonSchema({ type: 'integer', format: 'int32' })).toEqual({ type: 'integer', ...INT32 });
    expect(portableJsonSchema({ type: 'integer', format: 'int32', minimum: 1 })).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: INT32.maximum,
    });
    expect(portableJsonSchema({ type: 'number', format: 'float' })).toEqual({ type: 'number' });
    expect(portableJsonSchema({ type: 'integer', format: 'int64' })).toEqual({ type: 'integer' });
  });

  it("a nullable value's type list becomes anyOf of one type each; annotations stay beside it, null leaves the enum", () => {
    expect(
      portableJsonSchema({ type: ['string', 'null'], enum: ['a', 'b', null], description: 'd', examples: ['a'] }),
    ).toEqual({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }], description: 'd', examples: ['a'] });
    expect(
      portableJsonSchema({ type: 'array', items: { type: ['number', 'null'], format: 'float', example: 1.5 } }),
    ).toEqual({ type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'null' }], examples: [1.5] } });
    expect(portableJsonSchema({ type: ['object'], properties: {} })).toEqual({ type: 'object', properties: {} });
  });

  it('JSON Schema formats are kept, or, for a validator that knows none, date-time is said as its pattern', () => {
    const stamp: JsonSchema = { type: 'string', format: 'date-time' };
    expect(portableJsonSchema(stamp)).toEqual(stamp);
    const asPattern = portableJsonSchema(stamp, { formats: 'as-patterns' });
    expect(asPattern).toEqual({ type: 'string', pattern: expect.any(String) });
    const pattern = new RegExp(asPattern.pattern as string);
    expect(pattern.test('2026-11-29T07:08:04.123Z')).toBe(true);
    expect(pattern.test('2026-11-29T07:08:04+01:00')).toBe(true);
    expect(pattern.test('29 Nov 2026')).toBe(false);
    expect(portableJsonSchema({ type: 'string', format: 'email' }, { formats: 'as-patterns' })).toEqual({
      type: 'string',
    });
  });

  it('instance data (enum, const, default, examples) is kept as it is, even where it looks like a schema', () => {
    const data = { format: 'int32', example: 1, type: ['a', 'null'] };
    expect(portableJsonSchema({ const: data, default: data, enum: [data], examples: [data] })).toEqual({
      const: data,
      default: data,
      enum: [data],
      examples: [data],
    });
  });
});
