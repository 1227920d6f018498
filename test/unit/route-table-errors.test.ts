import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import { errorResponses } from '../../rest-compat/openapi/error-responses.js';
import { graphqlJsonSchemas } from '../../rest-compat/openapi/graphql-json-schema.js';
import { rowResponses } from '../../rest-compat/openapi/row-responses.js';
import type { RootFieldName } from '../../rest-compat/root-field.js';
import type { OperationRow } from '../../rest-compat/route-row.js';
import { RouteTableError } from '../../rest-compat/route-table-error.js';
import { rowOperation, rowRootField } from '../../rest-compat/row-operation.js';

const schema = buildSchema(`
  type Query { greeting(name: String!): String }
  type Mutation { rename(name: String!): String }
`);

const row = (field: string): OperationRow => ({
  kind: 'operation',
  id: `get_${field}`,
  method: 'GET',
  path: `/api/${field}`,
  tag: 'Test',
  summary: field,
  tier: 'free',
  field: field as RootFieldName,
});

describe("a row's root field: a Query or Mutation field of the supergraph, else the table does not start", () => {
  it('finds a Query field and a Mutation field with the operation type each runs on', () => {
    expect(rowRootField(row('greeting'), schema)).toMatchObject({ operation: 'query', field: { name: 'greeting' } });
    expect(rowRootField(row('rename'), schema)).toMatchObject({ operation: 'mutation', field: { name: 'rename' } });
    expect(rowOperation(row('rename'), schema)).toMatch(/^mutation get_rename\(\$name: String!\)/);
  });

  const missing = 'route get_farewell: the supergraph has no field Query.farewell or Mutation.farewell';

  it('a missing field is a RouteTableError when the table is compiled', () => {
    const compile = () => compileRouteTable({ rows: [row('farewell')] }, schema);
    expect(compile).toThrow(RouteTableError);
    expect(compile).toThrow(missing);
  });

  it('and the same RouteTableError when the OpenAPI responses are derived', () => {
    const document = () =>
      rowResponses({
        row: row('farewell'),
        schema,
        graphql: graphqlJsonSchemas({ schema }),
        errors: errorResponses(),
        paid: false,
        operation: 'query get_farewell { greeting(name: "x") }',
      });
    expect(document).toThrow(RouteTableError);
    expect(document).toThrow(missing);
  });
});
