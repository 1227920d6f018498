import { z } from 'zod';
import { CREDIT_PACKAGE_IDS } from '../../subgraphs/shared/credit-packages.js';
import { pick } from '../response-shape.js';
import type { RouteRow } from '../route-row.js';

/** Key ids are UUIDs; anything else is a malformed path, not an unknown key. */
const keyId = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be an API key id (UUID)',
  )
  .describe('API key id, stable across rotation')
  .meta({ example: '0f8fad5b-d9cb-469f-a165-70867728950e' });

const siweBody = z.object({
  message: z.string().min(1).max(10_000).describe('the full EIP-4361 message, as signed'),
  signature: z
    .string()
    .min(1)
    .max(10_000)
    .describe('0x-prefixed hex signature (EOA, or EIP-1271 / ERC-6492 contract wallet)'),
});

const keyName = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe('a label for the key, 1 to 64 characters')
    .meta({ example: 'backend' }),
});

const SIGN_IN_ERRORS =
  'Errors, all 401: `INVALID_MESSAGE` (not EIP-4361, or another URI, chain ID or version than the challenge), `INVALID_NONCE` (unknown, used or older than 5 minutes), `DOMAIN_MISMATCH` (not the challenge domain), `EXPIRED_MESSAGE` (past its expiration time, before its not-before time, or issued before the challenge), `INVALID_SIGNATURE`; 503 when a contract wallet cannot be checked.';
const SESSION_ERRORS =
  'Needs `Authorization: Bearer <token>`: 401 `UNAUTHORIZED` without a valid token, with a logged-out one or one a refresh replaced (logout alone accepts the latter), 401 `TOKEN_EXPIRED` after 24 hours.';

/** The older family answers only the nonce and its expiry. */
const nonceOnly = pick('nonce', 'expiresAt');

/** SPEC "Authentication and keys": SIWE sign-in, sessions, API keys, credits, usage; and the older /api/auth family. */
export const accountRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'getSiweChallenge',
    method: 'GET',
    path: '/api/auth/siwe/challenge',
    tag: 'Auth',
    summary: 'SIWE challenge: a single-use nonce (valid 5 minutes) and the domain, URI, version and chain ID to sign',
    tier: 'auth',
    field: 'siweChallenge',
  },
  {
    kind: 'operation',
    id: 'verifySiwe',
    method: 'POST',
    path: '/api/auth/siwe/verify',
    tag: 'Auth',
    summary: 'Verify a signed SIWE message; opens a 24-hour session (JWT)',
    description: SIGN_IN_ERRORS,
    tier: 'auth',
    params: { body: siweBody },
    field: 'siweVerify',
    errors: [401, 503],
  },
  {
    kind: 'operation',
    id: 'refreshSiweSession',
    method: 'POST',
    path: '/api/auth/siwe/refresh',
    tag: 'Auth',
    summary: 'New token and expiry for the session, without a new signature; the old token ends (refreshed once)',
    description: SESSION_ERRORS,
    tier: 'auth',
    field: 'refreshSession',
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'logoutSiweSession',
    method: 'POST',
    path: '/api/auth/siwe/logout',
    tag: 'Auth',
    summary: 'Terminate the session: its token and every token refreshed from it are refused from now on, everywhere',
    description: SESSION_ERRORS,
    tier: 'auth',
    field: 'logout',
    endsSession: true,
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'getSessionStatus',
    method: 'GET',
    path: '/api/auth/session',
    tag: 'Auth',
    summary: 'Whether the bearer token is a live session, its expiry and limits (authenticated: false without a token)',
    description: SESSION_ERRORS,
    tier: 'auth',
    field: 'sessionStatus',
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'getMe',
    method: 'GET',
    path: '/api/me',
    tag: 'Auth',
    summary: 'The signed-in wallet: first and last sign-in, session expiry, number of API keys, limits',
    description: SESSION_ERRORS,
    tier: 'light',
    field: 'me',
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'getMyUsage',
    method: 'GET',
    path: '/api/me/usage',
    tag: 'Auth',
    summary: "The signed-in wallet's calls today, and each of its API keys' calls and credits",
    description: SESSION_ERRORS,
    tier: 'light',
    field: 'myUsage',
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'getUsage',
    method: 'GET',
    path: '/api/usage',
    tag: 'Free',
    summary:
      "The caller's quota today (anonymous per IP, session per wallet, API key per key, with credits); consumes nothing",
    description:
      'Send `X-API-Key` or `Authorization: Bearer` to see that caller; wrong credentials are a 401 (`INVALID_API_KEY`, `UNAUTHORIZED`, `TOKEN_EXPIRED`).',
    tier: 'free',
    field: 'usage',
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'createApiKey',
    method: 'POST',
    path: '/api/user/keys',
    tag: 'Auth',
    summary: 'Create an API key for the signed-in wallet; the full key is shown only in this answer',
    description: `${SESSION_ERRORS} 409 \`CONFLICT\` when the wallet already holds 10 keys.`,
    tier: 'auth',
    params: { body: keyName },
    field: 'createApiKey',
    errors: [401, 409],
  },
  {
    kind: 'operation',
    id: 'listApiKeys',
    method: 'GET',
    path: '/api/user/keys',
    tag: 'Auth',
    summary: "The signed-in wallet's API keys: prefix with an ellipsis, last use, usage today, credits",
    description: SESSION_ERRORS,
    tier: 'auth',
    field: 'apiKeys',
    errors: [401],
  },
  {
    kind: 'operation',
    id: 'rotateApiKey',
    method: 'POST',
    path: '/api/user/keys/{id}/rotate',
    tag: 'Auth',
    summary: 'New secret for a key, same id and credits; the previous secret is refused at once',
    description: `${SESSION_ERRORS} 404 when the wallet holds no key with this id.`,
    tier: 'auth',
    params: { path: z.object({ id: keyId }) },
    field: 'rotateApiKey',
    errors: [401, 404],
  },
  {
    kind: 'operation',
    id: 'deleteApiKey',
    method: 'DELETE',
    path: '/api/user/keys/{id}',
    tag: 'Auth',
    summary: 'Delete a key; its remaining credits are destroyed (not refundable, not transferable)',
    description: `${SESSION_ERRORS} 404 when the wallet holds no key with this id.`,
    tier: 'auth',
    params: { path: z.object({ id: keyId }) },
    field: 'deleteApiKey',
    errors: [401, 404],
  },
  {
    kind: 'operation',
    id: 'getCreditPricing',
    method: 'GET',
    path: '/api/user/credits/pricing',
    tag: 'Auth',
    summary: 'Prepaid credit packages: past its daily limit an API key pays 1 credit per call',
    tier: 'free',
    field: 'creditPricing',
  },
  {
    kind: 'operation',
    id: 'purchaseCredits',
    method: 'POST',
    path: '/api/user/credits/{id}/purchase',
    tag: 'Auth',
    summary: 'Buy a credit package for a key, paid with x402; credits are added only against a verified payment',
    description: `${SESSION_ERRORS} 404 when the wallet holds no key with this id. Paid with x402 for the package's price: without a payment header the answer is 402 \`PAYMENT_REQUIRED\` with the package's \`priceUSD\`, \`recipient\`, x402 v1 \`accepts\` and the v2 \`PAYMENT-REQUIRED\` header; with a valid \`X-PAYMENT\` (v1) or \`PAYMENT-SIGNATURE\` (v2) the payment is settled and the key credited once per payment (a replayed payment is refused with 402).`,
    tier: 'auth',
    params: {
      path: z.object({ id: keyId }),
      body: z.object({ packageId: z.enum(CREDIT_PACKAGE_IDS).describe('credit package id') }),
    },
    field: 'purchaseCredits',
    errors: [401, 402, 404],
  },
  // The older family (SPEC: "the same flow"): the same fields underneath, answers shaped as those clients expect.
  {
    kind: 'operation',
    id: 'getAuthNonce',
    method: 'GET',
    path: '/api/auth/nonce',
    tag: 'Auth',
    summary: 'Older sign-in family: a SIWE nonce and its expiry (same as /api/auth/siwe/challenge)',
    tier: 'auth',
    field: 'siweChallenge',
    shape: nonceOnly,
  },
  {
    kind: 'operation',
    id: 'createAuthNonce',
    method: 'POST',
    path: '/api/auth/nonce',
    tag: 'Auth',
    summary: 'Older sign-in family: a SIWE nonce and its expiry (same as GET)',
    tier: 'auth',
    field: 'siweChallenge',
    shape: nonceOnly,
  },
  {
    kind: 'operation',
    id: 'verifyAuth',
    method: 'POST',
    path: '/api/auth/verify',
    tag: 'Auth',
    summary: 'Older sign-in family: verify a signed SIWE message; answers token, address and expiresAt',
    description: SIGN_IN_ERRORS,
    tier: 'auth',
    params: { body: siweBody },
    field: 'siweVerify',
    errors: [401, 503],
    shape: pick('token', 'address', 'expiresAt'),
  },
  {
    kind: 'operation',
    id: 'createAuthApiKey',
    method: 'POST',
    path: '/api/auth/apikey',
    tag: 'Auth',
    summary: 'Older family: create an API key from a name (same as POST /api/user/keys)',
    description: `${SESSION_ERRORS} 409 \`CONFLICT\` when the wallet already holds 10 keys.`,
    tier: 'auth',
    params: { body: keyName },
    field: 'createApiKey',
    errors: [401, 409],
  },
];
