import type { GraphQLSchema } from 'graphql';
import type { z } from 'zod';
import type { ResponseShape } from './response-shape.js';
import type { RootFieldName } from './root-field.js';

/** docs/api-contract.md#endpoint-tiers; `free` is the always-free set that no counter sees. */
export type Tier = 'free' | 'light' | 'medium' | 'heavy' | 'auth' | 'write';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * What a row needs of its caller (docs/api-contract.md#authentication), besides its tier's quota. `optional`: anyone,
 * counted as
 * what it sends (an API key, a SIWE session, else its IP), and past the free quota an x402 payment where the row is
 * sold. `session`: a SIWE session. `wallet`: a SIWE session or one of its wallet's API keys. `none`: nothing is
 * needed or counted. Credentials that are sent are checked on every row: a bad key or token is a 401 anywhere.
 */
export type RowCredentials = 'none' | 'optional' | 'session' | 'wallet';

/** The validated input of a call: path, query and body after their schemas ran. */
export interface RouteInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export interface RouteParams {
  path?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
}

interface RowBase {
  /** OpenAPI operationId; unique across the table. */
  id: string;
  method: HttpMethod;
  /**
   * The exact documented path, parameters in braces as the contract writes them (docs/api-contract.md#endpoints):
   * `/api/ens/resolve/{name}`.
   */
  path: string;
  tag: string;
  summary: string;
  /** Longer OpenAPI description (CommonMark); the summary stands alone when omitted. */
  description?: string;
  tier: Tier;
  /** Price per call in USD (dollars, as the contract writes them); omitted = free or the configured default. */
  price?: string;
  /** Error envelope of this route: `full` for /api, `ccip` for ERC-3668 routes. */
  envelope?: 'full' | 'ccip';
  params?: RouteParams;
  /** HTTP statuses besides 200 that this route documents. */
  errors?: number[];
  /**
   * What the row needs of its caller (see {@link RowCredentials}); default `none` on free rows, else `optional`. Its
   * OpenAPI `security`, and which MCP callers are offered its tool, come from it.
   */
  credentials?: RowCredentials;
}

/** A row answered by one GraphQL operation on the supergraph. */
export interface OperationRow extends RowBase {
  kind: 'operation';
  /**
   * The name of its MCP tool (snake_case, unique): GET and POST rows outside the Auth tier declare one, the others
   * none (src/http/mcp/agent-tools.ts checks both at start).
   */
  tool?: string;
  /**
   * Root field whose value is the response body; the operation selecting all its fields is generated. The 200 schema
   * is derived from the operation's selection (rest-compat/openapi/selection-json-schema.ts).
   */
  field: RootFieldName;
  /**
   * The row only ends the caller's session (logout): a token a refresh already replaced is accepted, so a logout
   * racing a refresh still ends the session.
   */
  endsSession?: true;
  /** An explicit operation where the generated one does not fit; must select `field`. */
  operation?: string;
  /** GraphQL variables from the validated input; default: path, query and body merged. */
  variables?: (input: RouteInput) => Record<string, unknown>;
  /**
   * Response shaping of the field's value (a null value is a 404 with `notFound`); it reshapes the 200 schema derived
   * from the operation's selection the same way.
   */
  shape?: ResponseShape;
  notFound?: string;
  /**
   * Seconds a shared cache may keep the answer (Cache-Control: public, max-age). Set it only on rows whose answer
   * depends on nothing but their input (never on the caller): the server also reuses such bodies for up to 1 s.
   */
  maxAge?: number;
}

/** A row answered by the server itself: machine-readable description, docs page. */
export interface DocumentRow extends RowBase {
  kind: 'document';
  contentType: string;
  /** Built once, on first use, from the table and the supergraph; the same bytes are served each time. */
  render: (ctx: DocumentContext) => string;
}

export interface DocumentContext {
  table: RouteTable;
  /** The supergraph API schema: response shapes of operation rows come from its types. */
  apiSchema: GraphQLSchema;
  /** PUBLIC_BASE_URL when configured (the OpenAPI `servers` entry). */
  publicBaseUrl: string | undefined;
  /** Price of counted rows that set none (X402_DEFAULT_PRICE_USD). */
  defaultPriceUsd: string;
}

/**
 * A row answered by running other rows: POST /api/batch. Each inner path goes through the same table, validation
 * and access rules as a call of its own (src/http/batch-route.ts); the batch itself is counted once.
 */
export interface BatchRow extends RowBase {
  kind: 'batch';
  /** Most inner requests one batch may hold; more is a 400. */
  maxRequests: number;
  /** JSON Schema of the 200 body (it is not a GraphQL field). */
  responseSchema: Record<string, unknown>;
}

export type RouteRow = OperationRow | DocumentRow | BatchRow;

export interface RouteTable {
  rows: readonly RouteRow[];
}

/** A row's credentials, its default filled in: free rows need none, counted rows take any. */
export function rowCredentials(row: Pick<RowBase, 'tier' | 'credentials'>): RowCredentials {
  return row.credentials ?? (row.tier === 'free' ? 'none' : 'optional');
}
