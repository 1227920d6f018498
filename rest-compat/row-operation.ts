import { buildOperationNodeForField } from '@graphql-tools/utils';
import { type GraphQLSchema, Kind, OperationTypeNode, print } from 'graphql';
import type { OperationRow } from './route-row.js';

/**
 * The GraphQL operation a row runs: its explicit `operation`, else the one selecting every field of its root field,
 * as sofa-api would generate it. The server runs this text and the OpenAPI document shows it (`x-graphql-operation`).
 * @example rowOperation({ kind: 'operation', id: 'resolveEnsName', field: 'ensResolve', … }, schema)
 * // 'query resolveEnsName($name: String!) {\n  ensResolve(name: $name) {\n    name\n    address\n  }\n}'
 */
export function rowOperation(row: OperationRow, schema: GraphQLSchema): string {
  if (row.operation) return row.operation;
  const onMutation = schema.getMutationType()?.getFields()[row.field] !== undefined;
  if (!onMutation && schema.getQueryType()?.getFields()[row.field] === undefined)
    throw new Error(`route ${row.id}: the supergraph has no field Query.${row.field} or Mutation.${row.field}`);
  const node = buildOperationNodeForField({
    schema,
    kind: onMutation ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY,
    field: row.field,
    depthLimit: 5,
    circularReferenceDepth: 1,
  });
  return print({ kind: Kind.DOCUMENT, definitions: [{ ...node, name: { kind: Kind.NAME, value: row.id } }] });
}
