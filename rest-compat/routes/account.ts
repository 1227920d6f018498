import 'reflect-metadata';
import { z } from 'zod';
import { apiKeyId, apiKeyName, siweMessage, siweSignature } from '../../src/arguments/account-arguments.js';
import { creditPackageId } from '../../src/arguments/credit-package.js';
import { AccountResolver } from '../../subgraphs/account/resolvers.js';
import { pick } from '../response-shape.js';
import { rootField } from '../root-field.js';
import type { OperationRow, RouteRow } from '../route-row.js';

const byKeyId = z.object({ id: apiKeyId });

/** The shape of a sign-in (a signed message is single-use: its nonce comes from a challenge of this server). */
const siweBody = z.object({ message: siweMessage, signature: siweSignature }).meta({
  example: {
    message:
      'localhost:3000 wants you to sign in with your Ethereum account:\n0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n\nSign in to the Chain Identity API\n\nURI: http://localhost:3000\nVersion: 1\nChain ID: 1\nNonce: 3f9c1a7be24d4f0e\nIssued At: 2025-01-01T00:00:00.000Z',
    signature: `0x${'ab'.repeat(65)}`,
  },
});

const keyName = z.object({ name: apiKeyName }).meta({ example: { name: 'backend' } });

const SIGN_IN_ERRORS =
  'Errors, all 401: `INVALID_MESSAGE` (not EIP-4361, or another URI, chain ID or version than the challenge), `INVALID_NONCE` (unknown, used or older than 5 minutes), `DOMAIN_MISMATCH` (not the challenge domain), `EXPIRED_MESSAGE` (past its expiration time, before its not-before time, or issued before the challenge), `INVALID_SIGNATURE`; 503 when a contract wallet cannot be checked.';
const SESSION_ERRORS =
  'Needs `Authorization: Bearer <token>`: 401 `UNAUTHORIZED` without a valid token, with a logged-out one or one a refresh replaced (logout alone accepts the latter), 401 `TOKEN_EXPIRED` after 24 hours.';

/** What the descriptions of rows on one key say of its 404. */
const NOT_YOUR_KEY = '404 when the wallet holds no key with this id.';

/** A row that needs a session: how to send it and the 401s without one. */
const SESSION = { description: SESSION_ERRORS, errors: [401], credentials: 'session' } satisfies Partial<OperationRow>;

/** A row on one API key of the signed-in wallet, by its id: 401 without a session, 404 for another wallet's key. */
const OWN_KEY = {
  description: `${SESSION_ERRORS} ${NOT_YOUR_KEY}`,
  params: { path: byKeyId },
  errors: [401, 404],
  credentials: 'session',
} satisfies Partial<OperationRow>;

/** Sign-in with a signed SIWE message, in either family: the message and signature, and why they are refused. */
const SIGN_IN = {
  description: SIGN_IN_ERRORS,
  params: { body: siweBody },
  errors: [401, 503],
} satisfies Partial<OperationRow>;

/** A new API key from a name, in either family: a session, and 409 past 10 keys. */
const NEW_KEY = {
  description: `${SESSION_ERRORS} 409 \`CONFLICT\` when the wallet already holds 10 keys.`,
  params: { body: keyName },
  errors: [401, 409],
  credentials: 'session',
} satisfies Partial<OperationRow>;

/** The older family answers only the nonce and its expiry. */
const nonceOnly = pick('nonce', 'expiresAt');

/**
 * docs/api-contract.md#authentication-and-keys: SIWE sign-in, sessions, API keys, credits, usage; and the older
 * /api/auth family.
 */
export const accountRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'getSiweChallenge',
    method: 'GET',
    path: '/api/auth/siwe/challenge',
    tag: 'Auth',
    summary: 'SIWE challenge: a single-use nonce (valid 5 minutes) and the domain, URI, version and chain ID to sign',
    tier: 'auth',
    field: rootField(AccountResolver.prototype.siweChallenge),
  },
  {
    kind: 'operation',
    id: 'verifySiwe',
    method: 'POST',
    path: '/api/auth/siwe/verify',
    tag: 'Auth',
    summary: 'Verify a signed SIWE message; opens a 24-hour session (JWT)',
    ...SIGN_IN,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.siweVerify),
  },
  {
    kind: 'operation',
    id: 'refreshSiweSession',
    method: 'POST',
    path: '/api/auth/siwe/refresh',
    tag: 'Auth',
    summary: 'New token and expiry for the session, without a new signature; the old token ends (refreshed once)',
    ...SESSION,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.refreshSession),
  },
  {
    kind: 'operation',
    id: 'logoutSiweSession',
    method: 'POST',
    path: '/api/auth/siwe/logout',
    tag: 'Auth',
    summary: 'Terminate the session: its token and every token refreshed from it are refused from now on, everywhere',
    ...SESSION,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.logout),
    endsSession: true,
  },
  {
    kind: 'operation',
    id: 'getSessionStatus',
    method: 'GET',
    path: '/api/auth/session',
    tag: 'Auth',
    summary: 'Whether the bearer token is a live session, its expiry and limits (authenticated: false without a token)',
    ...SESSION,
    // Answers anyone (authenticated: false without a session); a bad token is still a 401.
    credentials: 'optional',
    tier: 'auth',
    field: rootField(AccountResolver.prototype.sessionStatus),
  },
  {
    kind: 'operation',
    id: 'getMe',
    tool: 'get_me',
    method: 'GET',
    path: '/api/me',
    tag: 'Auth',
    summary: 'The signed-in wallet: first and last sign-in, session expiry, number of API keys, limits',
    ...SESSION,
    tier: 'light',
    field: rootField(AccountResolver.prototype.me),
  },
  {
    kind: 'operation',
    id: 'getMyUsage',
    tool: 'get_my_usage',
    method: 'GET',
    path: '/api/me/usage',
    tag: 'Auth',
    summary: "The signed-in wallet's calls today, and each of its API keys' calls and credits",
    ...SESSION,
    tier: 'light',
    field: rootField(AccountResolver.prototype.myUsage),
  },
  {
    kind: 'operation',
    id: 'getUsage',
    tool: 'get_usage',
    method: 'GET',
    path: '/api/usage',
    tag: 'Free',
    summary:
      "The caller's quota today (anonymous per IP, session per wallet, API key per key, with credits); consumes nothing",
    description:
      'Send `X-API-Key` or `Authorization: Bearer` to see that caller; wrong credentials are a 401 (`INVALID_API_KEY`, `UNAUTHORIZED`, `TOKEN_EXPIRED`).',
    tier: 'free',
    field: rootField(AccountResolver.prototype.usage),
    errors: [401],
    credentials: 'optional',
  },
  {
    kind: 'operation',
    id: 'createApiKey',
    method: 'POST',
    path: '/api/user/keys',
    tag: 'Auth',
    summary: 'Create an API key for the signed-in wallet; the full key is shown only in this answer',
    ...NEW_KEY,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.createApiKey),
  },
  {
    kind: 'operation',
    id: 'listApiKeys',
    method: 'GET',
    path: '/api/user/keys',
    tag: 'Auth',
    summary: "The signed-in wallet's API keys: prefix with an ellipsis, last use, usage today, credits",
    ...SESSION,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.apiKeys),
  },
  {
    kind: 'operation',
    id: 'rotateApiKey',
    method: 'POST',
    path: '/api/user/keys/{id}/rotate',
    tag: 'Auth',
    summary: 'New secret for a key, same id and credits; the previous secret is refused at once',
    ...OWN_KEY,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.rotateApiKey),
  },
  {
    kind: 'operation',
    id: 'deleteApiKey',
    method: 'DELETE',
    path: '/api/user/keys/{id}',
    tag: 'Auth',
    summary: 'Delete a key; its remaining credits are destroyed (not refundable, not transferable)',
    ...OWN_KEY,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.deleteApiKey),
  },
  {
    kind: 'operation',
    id: 'getCreditPricing',
    tool: 'get_credit_pricing',
    method: 'GET',
    path: '/api/user/credits/pricing',
    tag: 'Auth',
    summary: 'Prepaid credit packages: past its daily limit an API key pays 1 credit per call',
    tier: 'free',
    field: rootField(AccountResolver.prototype.creditPricing),
  },
  {
    kind: 'operation',
    id: 'purchaseCredits',
    method: 'POST',
    path: '/api/user/credits/{id}/purchase',
    tag: 'Auth',
    summary: 'Buy a credit package for a key, paid with x402; credits are added only against a verified payment',
    description: `${SESSION_ERRORS} ${NOT_YOUR_KEY} Paid with x402 for the package's price: without a payment header the answer is 402 \`PAYMENT_REQUIRED\` with the package's \`priceUSD\`, \`recipient\`, x402 v1 \`accepts\` and the v2 \`PAYMENT-REQUIRED\` header; with a valid \`X-PAYMENT\` (v1) or \`PAYMENT-SIGNATURE\` (v2) the payment is settled and the key credited once per payment (a replayed payment is refused with 402).`,
    tier: 'auth',
    params: {
      path: byKeyId,
      body: z.object({ packageId: creditPackageId }).meta({ example: { packageId: 'credits_100' } }),
    },
    field: rootField(AccountResolver.prototype.purchaseCredits),
    errors: [401, 402, 404],
    credentials: 'session',
  },
  // The older family (docs/api-contract.md#authentication-and-keys: "the same flow"): the same fields underneath,
  // answers shaped as those clients expect.
  {
    kind: 'operation',
    id: 'getAuthNonce',
    method: 'GET',
    path: '/api/auth/nonce',
    tag: 'Auth',
    summary: 'Older sign-in family: a SIWE nonce and its expiry (same as /api/auth/siwe/challenge)',
    tier: 'auth',
    field: rootField(AccountResolver.prototype.siweChallenge),
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
    field: rootField(AccountResolver.prototype.siweChallenge),
    shape: nonceOnly,
  },
  {
    kind: 'operation',
    id: 'verifyAuth',
    method: 'POST',
    path: '/api/auth/verify',
    tag: 'Auth',
    summary: 'Older sign-in family: verify a signed SIWE message; answers token, address and expiresAt',
    ...SIGN_IN,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.siweVerify),
    shape: pick('token', 'address', 'expiresAt'),
  },
  {
    kind: 'operation',
    id: 'createAuthApiKey',
    method: 'POST',
    path: '/api/auth/apikey',
    tag: 'Auth',
    summary: 'Older family: create an API key from a name (same as POST /api/user/keys)',
    ...NEW_KEY,
    tier: 'auth',
    field: rootField(AccountResolver.prototype.createApiKey),
  },
];
