import type { PreparedOperation } from '../../gateway/in-process-gateway.js';
import { graphqlOperationName } from '../../observability/graphql-request-observation.js';

/**
 * The operation names that may become metric labels: every REST row's operation and every published example
 * document's (examples/graphql/); a caller's other names are counted as `other`.
 * @example publishedOperationNames(compiledRows, graphiqlTabs().map((t) => t.query)) // ['resolveEnsName', …, 'Prices']
 */
export function publishedOperationNames(
  rows: readonly { prepared: PreparedOperation }[],
  documents: readonly string[],
): string[] {
  const names = new Set<string>();
  for (const { prepared } of rows) {
    const name = prepared.operation.name?.value;
    if (name !== undefined) names.add(name);
  }
  for (const query of documents) {
    const name = graphqlOperationName({ body: { query }, query: undefined });
    if (name !== undefined) names.add(name);
  }
  return [...names];
}
