import {
  type DocumentNode,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql';
import { LRUCache } from 'lru-cache';

/** A query text that parsed and validated, with the operation a given operation name picks. */
export interface ValidDocument {
  document: DocumentNode;
  /** The operation `operationName` picks (undefined: none, which Apollo Server answers with its error). */
  operation(operationName: string | undefined): OperationDefinitionNode | undefined;
}

/** Distinct query texts remembered; a client sends a handful, an attacker's stream of new ones only cycles them. */
const MAX_DOCUMENTS = 1000;

/**
 * Query texts parsed and validated once, with the very parse options and rules Apollo Server is given: what a
 * repeated query needs before it runs depends on its text alone. A text that does not parse or validate is
 * remembered as such (null): Apollo Server answers it, with its own errors.
 * @example const documents = new GraphqlDocuments({ schema, maxTokens, rules }); documents.get('{ __typename }')
 */
export class GraphqlDocuments {
  private readonly known = new LRUCache<string, ValidDocument | 'invalid'>({ max: MAX_DOCUMENTS });

  constructor(private readonly p: { schema: GraphQLSchema; maxTokens: number; rules: readonly ValidationRule[] }) {}

  get(query: string): ValidDocument | null {
    let entry = this.known.get(query);
    if (entry === undefined) {
      entry = this.prepare(query);
      this.known.set(query, entry);
    }
    return entry === 'invalid' ? null : entry;
  }

  private prepare(query: string): ValidDocument | 'invalid' {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.p.maxTokens });
    } catch {
      return 'invalid';
    }
    if (validate(this.p.schema, document, [...specifiedRules, ...this.p.rules]).length > 0) return 'invalid';
    return { document, operation: (operationName) => getOperationAST(document, operationName) ?? undefined };
  }
}
