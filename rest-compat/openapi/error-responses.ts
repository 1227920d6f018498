import { STATUS_CODES } from 'node:http';
import { CcipGatewayError, type ErrorCode, STATUS_OF_CODE } from '../../src/errors/api-error.js';
import {
  componentRef,
  type HeaderObject,
  type JsonSchema,
  type Reference,
  type ResponseObject,
} from './openapi-types.js';
import { rateLimitHeaderRefs } from './rate-limit-headers.js';

export type Envelope = 'full' | 'ccip';

const EXAMPLE_TIME = '2025-01-01T00:00:00.000Z';

const timestamp = { type: 'string', format: 'date-time', description: 'ISO 8601' };
const code = { type: 'string', description: 'Machine-readable error code' };
const message = { type: 'string', description: 'What went wrong, for people' };
const rateLimitFields = {
  retryAfter: {
    type: 'integer',
    minimum: 0,
    description: 'Seconds until a retry can succeed; also the Retry-After header',
  },
  tier: { type: 'string', description: 'Tier whose limit was hit' },
  limit: { type: 'integer', description: 'The limit that was hit' },
  suggestion: { type: 'string', description: 'How to get more: sign in, use an API key, or pay per request' },
};
const paymentFields = {
  priceUSD: { type: 'string', description: 'Price of this call in USD (dollars)', examples: ['0.01'] },
  recipient: { type: 'string', description: 'Address that receives the USDC payment on Base' },
};

/**
 * The error bodies every route shares (docs/api-contract.md#error-envelopes); the ccip variants follow renderError's
 * ccip style.
 */
const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ErrorEnvelope: {
    type: 'object',
    description: 'Full error envelope of /api routes',
    required: ['error', 'code', 'message', 'timestamp'],
    properties: { error: { type: 'boolean', const: true }, code, message, timestamp },
  },
  CcipError: {
    type: 'object',
    description: 'Error body of the CCIP-Read (ERC-3668) routes; `error` repeats the message',
    required: ['error', 'code', 'message'],
    properties: { error: { type: 'string' }, code, message },
  },
  RateLimitError: {
    type: 'object',
    description: 'A per-minute or daily limit was exceeded',
    required: ['error', 'code', 'message', 'retryAfter', 'tier', 'limit', 'suggestion', 'timestamp'],
    properties: {
      error: { type: 'boolean', const: true },
      code: { type: 'string', const: 'RATE_LIMITED' },
      message,
      ...rateLimitFields,
      timestamp,
    },
  },
  PaymentRequiredError: {
    description:
      'The free tier is used up: pay for this call with x402 (PAYMENT_REQUIRED, with the price), or, for an API key past its daily limit with no credits left, buy credits (INSUFFICIENT_CREDITS)',
    oneOf: [
      {
        type: 'object',
        description:
          "x402 v1's PaymentRequirementsResponse (`x402Version`, `error` as a string, `accepts`) with `priceUSD` and `recipient` and the envelope's `code`, `message`, `timestamp`",
        required: ['x402Version', 'error', 'accepts', 'code', 'message', 'timestamp', 'priceUSD', 'recipient'],
        properties: {
          x402Version: { type: 'integer', const: 1 },
          error: {
            type: 'string',
            description:
              "x402's machine reason (one of the x402 package's ErrorReasons): why a sent payment was refused, else `invalid_payment` (no payment sent); `message` says it in words",
          },
          accepts: {
            type: 'array',
            description:
              'x402 v1 payment requirements (scheme exact, network base, USDC); the v2 offer is in the PAYMENT-REQUIRED header',
            items: { type: 'object' },
          },
          code: { type: 'string', const: 'PAYMENT_REQUIRED' },
          message,
          ...paymentFields,
          timestamp,
        },
      },
      {
        type: 'object',
        required: ['error', 'code', 'message', 'retryAfter', 'tier', 'limit', 'credits', 'suggestion', 'timestamp'],
        properties: {
          error: { type: 'boolean', const: true },
          code: { type: 'string', const: 'INSUFFICIENT_CREDITS' },
          message,
          ...rateLimitFields,
          credits: { type: 'integer', const: 0, description: "The key's credit balance" },
          timestamp,
        },
      },
    ],
  },
  CcipRateLimitError: {
    type: 'object',
    description: 'A per-minute or daily limit was exceeded (CCIP-Read route)',
    required: ['error', 'code', 'message', 'retryAfter', 'tier', 'limit', 'suggestion'],
    properties: {
      error: { type: 'string' },
      code: { type: 'string', const: 'RATE_LIMITED' },
      message,
      ...rateLimitFields,
    },
  },
  CcipPaymentRequiredError: {
    type: 'object',
    description: 'The free tier is used up; pay for this call with x402 (CCIP-Read route)',
    required: ['error', 'code', 'message', 'priceUSD', 'recipient'],
    properties: {
      error: { type: 'string' },
      code: { type: 'string', const: 'PAYMENT_REQUIRED' },
      message,
      ...paymentFields,
    },
  },
};

/** Always in the document, used or not: the envelopes of docs/api-contract.md#error-envelopes. */
const ALWAYS = ['ErrorEnvelope', 'CcipError', 'RateLimitError'];

interface StatusInfo {
  name: string;
  description: string;
  code?: string;
  message?: string;
}

/** The response component of each status: its name and what it means. */
const STATUS_RESPONSES: Record<number, Pick<StatusInfo, 'name' | 'description'>> = {
  400: { name: 'BadRequest', description: 'Invalid parameters or malformed request' },
  401: { name: 'Unauthorized', description: 'Missing, invalid or expired credentials' },
  402: { name: 'PaymentRequired', description: 'Payment required: the free tier is used up' },
  403: { name: 'Forbidden', description: 'The caller may not do this' },
  404: {
    name: 'NotFound',
    description: 'Not found (for example an unregistered or expired ENS name, or an address without a reverse name)',
  },
  405: { name: 'MethodNotAllowed', description: 'Method not allowed on this path' },
  409: { name: 'Conflict', description: 'Conflicts with the current state' },
  413: { name: 'PayloadTooLarge', description: 'Request body too large' },
  415: { name: 'UnsupportedMediaType', description: 'Request body is not JSON' },
  429: { name: 'RateLimited', description: 'A per-minute or daily limit was exceeded' },
  500: { name: 'InternalError', description: 'Server error' },
  503: { name: 'ServiceUnavailable', description: 'Upstream provider unavailable or degraded' },
};

/**
 * The example body of the statuses besides 402 and 429 (those have bodies of their own): one code per status, whose
 * status STATUS_OF_CODE decides, and its message.
 */
const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  INVALID_PARAMETER: 'name is not a valid ENS name',
  UNAUTHORIZED: 'a session token is required',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not found',
  METHOD_NOT_ALLOWED: 'method not allowed',
  CONFLICT: 'already exists',
  PAYLOAD_TOO_LARGE: 'request body too large',
  UNSUPPORTED_MEDIA_TYPE: 'expected application/json',
  INTERNAL_ERROR: 'internal server error',
  SERVICE_UNAVAILABLE: 'upstream provider unavailable',
};

/**
 * Example messages by the status each code is answered with (STATUS_OF_CODE). A status has one example: two codes
 * answered with one status are a mistake in the table, refused when the module loads rather than one kept silently.
 * @example examplesByStatus({ NOT_FOUND: 'not found' }).get(404) // { code: 'NOT_FOUND', message: 'not found' }
 */
export function examplesByStatus(
  messages: Partial<Record<ErrorCode, string>>,
): Map<number, { code: ErrorCode; message: string }> {
  const byStatus = new Map<number, { code: ErrorCode; message: string }>();
  for (const [code, message] of Object.entries(messages) as [ErrorCode, string][]) {
    const status = STATUS_OF_CODE[code];
    const taken = byStatus.get(status);
    if (taken) throw new Error(`error examples: ${taken.code} and ${code} are both answered ${status}; keep one`);
    byStatus.set(status, { code, message });
  }
  return byStatus;
}

const EXAMPLE_BY_STATUS = examplesByStatus(EXAMPLE_MESSAGES);

const CCIP_STATUS_INFO: Record<number, Partial<StatusInfo>> = {
  400: {
    description: 'Invalid CCIP request or data (CCIP_ERROR; INVALID_REQUEST when sender or data is missing)',
    code: 'CCIP_ERROR',
    message: 'invalid calldata',
  },
  [CcipGatewayError.status]: {
    description: 'CCIP gateway internal error',
    code: CcipGatewayError.code,
    message: 'gateway error',
  },
};

export interface ErrorResponses {
  /** A `$ref` to the response component of `status` in `envelope`, created on first use. */
  ref(status: number, envelope: Envelope): Reference;
  /** `components.responses` created so far. */
  readonly responses: Record<string, ResponseObject>;
  /** The error `components.schemas` the responses use. */
  readonly schemas: Record<string, JsonSchema>;
}

/**
 * Shared error responses: each status once per envelope, referenced from every operation.
 * @example const errors = errorResponses(); op.responses['404'] = errors.ref(404, 'full')
 */
export function errorResponses(): ErrorResponses {
  const responses: Record<string, ResponseObject> = {};
  const schemas: Record<string, JsonSchema> = {};
  for (const name of ALWAYS) schemas[name] = ERROR_SCHEMAS[name] as JsonSchema;

  const ref = (status: number, envelope: Envelope): Reference => {
    const info = { ...statusInfo(status), ...(envelope === 'ccip' ? CCIP_STATUS_INFO[status] : {}) };
    const name = envelope === 'ccip' ? `Ccip${info.name}` : info.name;
    if (responses[name] === undefined) {
      const schemaName = schemaNameFor(status, envelope);
      schemas[schemaName] = ERROR_SCHEMAS[schemaName] as JsonSchema;
      const headers: Record<string, HeaderObject | Reference> | undefined =
        status === 429
          ? { 'Retry-After': componentRef('headers', 'Retry-After'), ...rateLimitHeaderRefs() }
          : undefined;
      responses[name] = {
        description: info.code ? `${info.description} (${info.code})` : info.description,
        ...(headers ? { headers } : {}),
        content: {
          'application/json': {
            schema: componentRef('schemas', schemaName) as unknown as JsonSchema,
            example: exampleBody(status, envelope, info),
          },
        },
      };
    }
    return componentRef('responses', name);
  };

  return { ref, responses, schemas };
}

function statusInfo(status: number): StatusInfo {
  const response = STATUS_RESPONSES[status] ?? {
    name: `Error${status}`,
    description: STATUS_CODES[status] ?? `HTTP ${status}`,
  };
  return { ...response, ...EXAMPLE_BY_STATUS.get(status) };
}

function schemaNameFor(status: number, envelope: Envelope): string {
  const prefix = envelope === 'ccip' ? 'Ccip' : '';
  if (status === 429) return `${prefix}RateLimitError`;
  if (status === 402) return `${prefix}PaymentRequiredError`;
  return envelope === 'ccip' ? 'CcipError' : 'ErrorEnvelope';
}

function exampleBody(status: number, envelope: Envelope, info: StatusInfo): Record<string, unknown> {
  const time = envelope === 'full' ? { timestamp: EXAMPLE_TIME } : {};
  const head = (codeValue: string, text: string) =>
    envelope === 'full'
      ? { error: true, code: codeValue, message: text }
      : { error: text, code: codeValue, message: text };
  if (status === 429) {
    const text = 'Rate limit exceeded for tier light: 120 requests per minute';
    return {
      ...head('RATE_LIMITED', text),
      retryAfter: 42,
      tier: 'light',
      limit: 120,
      suggestion: 'Sign in with SIWE, use an API key, or pay per request with x402',
      ...time,
    };
  }
  if (status === 402) {
    const text = 'Free tier used up: pay 0.01 USD with x402';
    const recipient = '0x0000000000000000000000000000000000000000';
    if (envelope === 'ccip') return { ...head('PAYMENT_REQUIRED', text), priceUSD: '0.01', recipient };
    return {
      x402Version: 1,
      error: 'invalid_payment',
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: '10000',
          resource: 'https://api.example.com/api/ens/alice.eth',
          description: 'ENS profile',
          mimeType: 'application/json',
          payTo: recipient,
          maxTimeoutSeconds: 60,
          asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          extra: { name: 'USD Coin', version: '2' },
        },
      ],
      code: 'PAYMENT_REQUIRED',
      message: text,
      priceUSD: '0.01',
      recipient,
      ...time,
    };
  }
  return { ...head(info.code ?? 'ERROR', info.message ?? info.description), ...time };
}
