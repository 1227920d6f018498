import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { type Example, json } from '../example.js';

/** A session: its bearer token, the wallet it is for and when it ends (24 hours after sign-in). */
export interface Session {
  token: string;
  address: string;
  expiresAt: string;
}

/**
 * Signs in with Ethereum (EIP-4361): a challenge, the message the wallet signs, a session token.
 * @example const session = await signInWithEthereum(api, privateKeyToAccount(key))
 */
export async function signInWithEthereum(api: string, wallet: PrivateKeyAccount): Promise<Session> {
  // 1. A challenge: a single-use nonce (5 minutes) and the domain, URI, version and chain ID to sign.
  const challenge = await json<{ nonce: string; issuedAt: string; domain: string; uri: string; chainId: number }>(
    await fetch(`${api}/api/auth/siwe/challenge`),
  );
  // 2. The EIP-4361 message, signed by the wallet (personal_sign).
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
  const signature = await wallet.signMessage({ message });
  // 3. A 24-hour session token, sent as `Authorization: Bearer <token>`.
  return json<Session>(
    await fetch(`${api}/api/auth/siwe/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature }),
    }),
  );
}

/**
 * Sign in with a wallet (made up on the spot: any wallet can), create an API key for a server, call with it.
 * Run: npm run example -- auth/sign-in
 */
export default async function signIn({ api, print }: Example): Promise<void> {
  const session = await signInWithEthereum(api, privateKeyToAccount(generatePrivateKey()));
  print(`signed in as ${session.address} until ${session.expiresAt}`);

  // An API key: the full key is shown only in this answer.
  const created = await json<{ key: { id: string; key: string; dailyLimit: number } }>(
    await fetch(`${api}/api/user/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'example server' }),
    }),
  );
  print(`API key ${created.key.id}: ${created.key.key.slice(0, 12)}… (daily limit: ${created.key.dailyLimit})`);

  // Calls with the key are counted on the key, not on the IP address.
  const usage = await json<{ tier: string; used: number; limit: number }>(
    await fetch(`${api}/api/usage`, { headers: { 'x-api-key': created.key.key } }),
  );
  print(`usage on the key: tier ${usage.tier}, ${usage.used} of ${usage.limit} used today`);
}
