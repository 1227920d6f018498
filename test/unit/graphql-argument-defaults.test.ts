import 'reflect-metadata';
import { type GraphQLArgument, type GraphQLSchema, getNamedType, isLeafType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { OperationRow } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { argumentDefault } from '../../src/arguments/argument-options.js';
import { chainOrDefault } from '../../src/arguments/chain.js';
import { recentCastsLimit } from '../../src/arguments/farcaster-arguments.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';

/** An argument of a field of the schemas the subgraphs build from the code (not the published files). */
interface FieldArgument {
  field: string;
  argument: GraphQLArgument;
}

function argumentsOf(schemas: readonly GraphQLSchema[], type: string, field: string): GraphQLArgument[] {
  for (const schema of schemas) {
    const found = schema.getType(type);
    if (found && 'getFields' in found) {
      const fields = found.getFields() as Record<string, { args?: readonly GraphQLArgument[] }>;
      if (fields[field]?.args) return [...(fields[field].args ?? [])];
    }
  }
  return [];
}

/** The REST (and MCP) parameter of a row named like a GraphQL argument, from its path, query or body. */
function restParameter(row: OperationRow, name: string): z.ZodType | undefined {
  for (const part of ['path', 'query', 'body'] as const) {
    const schema = row.params?.[part]?.shape[name];
    if (schema !== undefined) return schema as z.ZodType;
  }
  return undefined;
}

describe('a GraphQL argument with a default', () => {
  let schemas: GraphQLSchema[];
  let defaulted: FieldArgument[];
  beforeAll(async () => {
    schemas = (await buildAllSubgraphs()).map((s) => s.schema);
    defaulted = schemas.flatMap((schema) =>
      Object.values(schema.getTypeMap()).flatMap((type) =>
        type.name.startsWith('__') || !('getFields' in type)
          ? []
          : Object.values(type.getFields() as Record<string, { args?: readonly GraphQLArgument[] }>).flatMap((f) =>
              (f.args ?? [])
                .filter((a) => a.defaultValue !== undefined)
                .map((argument) => ({ field: `${type.name}.${(f as { name: string }).name}`, argument })),
            ),
      ),
    );
  });

  it('takes its default and description from the rule its REST parameter and MCP tool parse with', () => {
    const compared = new Set<string>();
    for (const row of ROUTE_TABLE.rows) {
      if (row.kind !== 'operation') continue;
      for (const type of ['Query', 'Mutation']) {
        for (const argument of argumentsOf(schemas, type, row.field)) {
          const rule = restParameter(row, argument.name);
          // Input objects (webhook filters) are read whole by their own body rule; the defaults here are scalars'.
          if (rule === undefined || !isLeafType(getNamedType(argument.type))) continue;
          const ruleDefault = argumentDefault(rule);
          if (argument.defaultValue === undefined && ruleDefault === undefined) continue;
          const at = `${row.id} → ${row.field}(${argument.name})`;
          expect(argument.defaultValue, at).toEqual(ruleDefault);
          expect(argument.description, at).toBe(rule.description);
          compared.add(`${type}.${row.field}(${argument.name})`);
        }
      }
    }
    // Every defaulted argument of a field a row runs (limits, offsets, days, chains, the search type) was compared.
    const onRowFields = defaulted
      .map(({ field, argument }) => `${field}(${argument.name})`)
      .filter((name) => [...compared].some((c) => c.startsWith(name.slice(0, name.indexOf('(') + 1))));
    expect(compared.size).toBeGreaterThanOrEqual(30);
    expect([...compared].sort()).toEqual([...new Set(onRowFields)].sort());
  });

  it('has a rule in src/arguments even where no REST parameter stands for it (a field of a type)', () => {
    const onRows = new Set(
      ROUTE_TABLE.rows.flatMap((row) =>
        row.kind === 'operation' ? [`Query.${row.field}`, `Mutation.${row.field}`] : [],
      ),
    );
    const elsewhere = defaulted.filter(({ field }) => !onRows.has(field));
    const rules: Record<string, z.ZodType> = {
      'FarcasterUser.recentCasts(limit)': recentCastsLimit,
      'Wallet.balance(chain)': chainOrDefault,
    };
    expect(elsewhere.map(({ field, argument }) => `${field}(${argument.name})`).sort()).toEqual(Object.keys(rules));
    for (const { field, argument } of elsewhere) {
      const rule = rules[`${field}(${argument.name})`] as z.ZodType;
      expect(argument.defaultValue).toEqual(argumentDefault(rule));
      expect(argument.description).toBe(rule.description);
    }
  });
});
