import { createSiweMessage } from 'viem/siwe';
import { getDevAccounts } from './chain/dev-accounts.js';

/** The dev account the demo key belongs to: alice (#1, alice.eth's owner), whose key anvil publishes. */
const ALICE = 1;
/** The name the demo key carries: a second run rotates this key instead of adding another (a wallet holds 10). */
export const DEMO_KEY_NAME = 'demo key';
/** The parts that must all be the embedded demo for the demo to sign in with a public dev key. */
const DEMO_ONLY_PARTS = ['ethereum', 'base', 'facilitator', 'jwt-secret'] as const;

export class DemoApiKeyRefused extends Error {
  override name = 'DemoApiKeyRefused';
}

type Fetch = typeof fetch;

/** The JSON of an answer, or an error naming the call, its status and body. */
async function answer<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Refuses a server that is not the embedded default: signing in with anvil's public dev key makes sense only there,
 * and a key for a deployment belongs to a wallet of your own (docs/access.md#sign-in-with-ethereum).
 */
async function requireEmbeddedDefault(apiUrl: string, fetchFn: Fetch): Promise<void> {
  const res = await fetchFn(`${apiUrl}/api/sources/health`).catch((err: Error) => {
    throw new Error(`no server answers at ${apiUrl} (${err.message}): start it with npm start`);
  });
  const health = await answer<{ parts?: { part: string; mode: string }[] }>(res, 'GET /api/sources/health');
  const live = (health.parts ?? [])
    .filter((p) => (DEMO_ONLY_PARTS as readonly string[]).includes(p.part) && p.mode !== 'demo')
    .map((p) => p.part);
  if (live.length > 0 || !health.parts) {
    throw new DemoApiKeyRefused(
      `refused: the server at ${apiUrl} is a live configuration (${live.join(', ') || 'parts not reported'} live), and a demo key signs in with a public dev key. Sign in with a wallet of your own: npm run example -- auth/sign-in, or docs/access.md`,
    );
  }
}

/**
 * `npm run demo -- api-key`: signs in with Ethereum as the dev account alice, creates the API key "demo key" (or
 * rotates it when alice holds one already) and returns the lines to print, the full key once on the last as an
 * `export API_KEY=…` line to paste. Refused unless the server is the embedded default.
 * @example (await demoApiKey('http://127.0.0.1:3000', fetch)).at(-1) // 'export API_KEY=sk_live_…'
 */
export async function demoApiKey(apiUrl: string, fetchFn: Fetch): Promise<string[]> {
  await requireEmbeddedDefault(apiUrl, fetchFn);
  const wallet = getDevAccounts()[ALICE]!;
  const challenge = await answer<{ nonce: string; issuedAt: string; domain: string; uri: string; chainId: number }>(
    await fetchFn(`${apiUrl}/api/auth/siwe/challenge`),
    'GET /api/auth/siwe/challenge',
  );
  const message = createSiweMessage({
    domain: challenge.domain,
    address: wallet.address,
    statement: 'Sign in to the Blockchain Identity API',
    uri: challenge.uri,
    version: '1',
    chainId: challenge.chainId,
    nonce: challenge.nonce,
    issuedAt: new Date(challenge.issuedAt),
  });
  const session = await answer<{ token: string; expiresAt: string }>(
    await fetchFn(`${apiUrl}/api/auth/siwe/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature: await wallet.signMessage({ message }) }),
    }),
    'POST /api/auth/siwe/verify',
  );
  const auth = { authorization: `Bearer ${session.token}` };
  const { keys } = await answer<{ keys: { id: string; name: string }[] }>(
    await fetchFn(`${apiUrl}/api/user/keys`, { headers: auth }),
    'GET /api/user/keys',
  );
  const held = keys.find((k) => k.name === DEMO_KEY_NAME);
  const made = held
    ? await answer<{ key: { id: string; key: string } }>(
        await fetchFn(`${apiUrl}/api/user/keys/${held.id}/rotate`, { method: 'POST', headers: auth }),
        'POST /api/user/keys/{id}/rotate',
      )
    : await answer<{ key: { id: string; key: string } }>(
        await fetchFn(`${apiUrl}/api/user/keys`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: DEMO_KEY_NAME }),
        }),
        'POST /api/user/keys',
      );
  return [
    `signed in with Ethereum (SIWE) as alice, dev account #${ALICE} ${wallet.address}`,
    `${held ? 'rotated' : 'created'} API key "${DEMO_KEY_NAME}" ${made.key.id}${held ? ' (its previous secret is refused from now on)' : ''}`,
    'a DEMO key of the embedded default, shown this once: paste the next line into your shell, then run examples/rest/api-key.sh',
    `export API_KEY=${made.key.key}`,
  ];
}
