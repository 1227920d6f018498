import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';

/** A server the wallet talks to: anything with the test server's get/post. */
export interface SiweServer {
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface Challenge {
  nonce: string;
  issuedAt: string;
  expiresAt: string;
  domain: string;
  uri: string;
  version: string;
  chainId: number;
}

export const newWallet = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

export async function getChallenge(server: SiweServer): Promise<Challenge> {
  const res = await server.get('/api/auth/siwe/challenge');
  if (res.status !== 200) throw new Error(`challenge: ${res.status} ${await res.text()}`);
  return (await res.json()) as Challenge;
}

/**
 * The message a wallet builds from a challenge (docs/api-contract.md#siwe-session, step 2), with fields overridable by
 * tests.
 */
export function messageFor(
  wallet: PrivateKeyAccount,
  challenge: Challenge,
  overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
): string {
  return createSiweMessage({
    domain: challenge.domain,
    address: wallet.address,
    statement: 'Sign in to the Blockchain Identity API',
    uri: challenge.uri,
    version: '1',
    chainId: challenge.chainId,
    nonce: challenge.nonce,
    issuedAt: new Date(challenge.issuedAt),
    ...overrides,
  });
}

/** Signs in as a wallet would: challenge, EIP-4361 message, personal_sign, verify. Returns the session. */
export async function signIn(
  server: SiweServer,
  wallet: PrivateKeyAccount = newWallet(),
): Promise<{ token: string; address: string; expiresAt: string; wallet: PrivateKeyAccount }> {
  const message = messageFor(wallet, await getChallenge(server));
  const signature = await wallet.signMessage({ message });
  const res = await server.post('/api/auth/siwe/verify', { message, signature });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${await res.text()}`);
  const session = (await res.json()) as { token: string; address: string; expiresAt: string };
  return { ...session, wallet };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
