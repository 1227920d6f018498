import { createHash } from 'node:crypto';
import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { namedOperationIn } from '../observability/graphql-request-observation.js';
import {
  asGraphQLError,
  badRequest,
  persistedQueryNotFound,
  syntaxError,
  validationError,
} from './graphql-coded-errors.js';
import type { GraphqlParams } from './graphql-request.js';

/** A query text that parsed and validated, with the operation a given operation name picks. */
export interface ValidDocument {
  document: DocumentNode;
  /** The operation `operationName` picks (undefined: none, answered OPERATION_RESOLUTION_FAILURE). */
  operation(operationName: string | undefined): OperationDefinitionNode | undefined;
  /** The text's {@link namedOperationIn}, read once: /metrics labels a request without operationName by it. */
  namedOperation: string | undefined;
}

/** Bytes of parsed documents kept (Apollo Server's default document store keeps 30 MiB). */
const DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;
/** Bytes of persisted-query texts kept (APQ): a client that finds its hash gone sends the text again. */
const PERSISTED_QUERY_BYTES = 16 * 1024 * 1024;

/** A JS string's own bytes (UTF-16), what a cached text or key holds in the heap. */
const stringBytes = (text: string): number => text.length * 2;

/**
 * Query texts parsed and validated once, with the parse options and rules /graphql runs (`maxTokens`, the depth,
 * alias and cost limits). Only valid documents are kept, and only as many as fit in DOCUMENT_CACHE_BYTES, each
 * counted as its text plus its syntax tree (its JSON size, as Apollo Server measures it): a stream of new or invalid
 * texts cannot grow the heap. The text itself is the key: a document's error locations depend on every character.
 * @example const documents = new GraphqlDocuments({ schema, maxTokens, rules }); documents.prepare('{ __typename }')
 */
export class GraphqlDocuments {
  private readonly known = new LRUCache<string, ValidDocument>({
    maxSize: DOCUMENT_CACHE_BYTES,
    sizeCalculation: (valid, query) =>
      stringBytes(query) + JSON.stringify(valid.document).length + stringBytes(valid.namedOperation ?? ''),
  });
  private readonly persisted = new LRUCache<string, string>({
    maxSize: PERSISTED_QUERY_BYTES,
    sizeCalculation: (query, hash) => stringBytes(query) + stringBytes(hash),
  });

  constructor(private readonly p: { schema: GraphQLSchema; maxTokens: number; rules: readonly ValidationRule[] }) {}

  /**
   * The query text a request runs (its `query`, or for APQ the text its `persistedQuery` hash names) and the hash to
   * remember it under once the operation is admitted; or the errors that answer it.
   */
  source(params: GraphqlParams): { query: string; persist?: string } | { errors: GraphQLError[] } {
    const apq = params.extensions?.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
    if (!apq) {
      if (params.query) return { query: params.query };
      return {
        errors: [badRequest('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.')],
      };
    }
    if (apq.version !== 1) return { errors: [badRequest('Unsupported persisted query version')] };
    const hash = String(apq.sha256Hash);
    if (params.query === undefined) {
      const query = this.persisted.get(hash);
      return query === undefined ? { errors: [persistedQueryNotFound()] } : { query };
    }
    if (createHash('sha256').update(params.query).digest('hex') !== hash) {
      return { errors: [badRequest('provided sha does not match query')] };
    }
    return { query: params.query, persist: hash };
  }

  /**
   * {@link namedOperationIn} of `query`: read from its cached document when it has one (the search runs over the
   * whole text, ~0.7 µs for a 250-character document), else searched.
   */
  readonly namedOperationIn = (query: string): string | undefined => {
    const known = this.known.peek(query);
    return known === undefined ? namedOperationIn(query) : known.namedOperation;
  };

  /** Remembers an admitted APQ text under its hash. */
  persist(hash: string, query: string): void {
    this.persisted.set(hash, query);
  }

  /** The query text parsed and validated (from the cache when seen before), or its parse or validation errors. */
  prepare(query: string): ValidDocument | { errors: GraphQLError[] } {
    const hit = this.known.get(query);
    if (hit) return hit;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.p.maxTokens });
    } catch (err) {
      return { errors: [syntaxError(asGraphQLError(err))] };
    }
    const invalid = validate(this.p.schema, document, [...specifiedRules, ...this.p.rules]);
    if (invalid.length > 0) return { errors: invalid.map(validationError) };
    // The operation a request without operationName runs, found once: every call asks for it (twice).
    let unnamed: OperationDefinitionNode | null | undefined;
    const valid: ValidDocument = {
      document,
      namedOperation: namedOperationIn(query),
      operation: (operationName) => {
        if (operationName !== undefined) return getOperationAST(document, operationName) ?? undefined;
        if (unnamed === undefined) unnamed = getOperationAST(document);
        return unnamed ?? undefined;
      },
    };
    this.known.set(query, valid);
    return valid;
  }

  /** Bytes held by both caches, for tests and /metrics. */
  get heldBytes(): number {
    return this.known.calculatedSize + this.persisted.calculatedSize;
  }
}
