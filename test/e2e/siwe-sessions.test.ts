import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Challenge, getChallenge, messageFor, newWallet, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
const FIVE_MINUTES = 5 * 60 * 1000;
const DAY = 24 * 60 * 60 * 1000;

const verify = (server: TestServer, message: string, signature: string) =>
  server.post('/api/auth/siwe/verify', { message, signature });

/**
 * A GET with headers fetch will not send (Host): what a relaying phishing site or a lying proxy sends. In process, where
 * the caller chooses the Host header.
 */
async function getWithHost(server: TestServer, path: string, headers: Record<string, string>): Promise<Challenge> {
  const res = await server.get(path, headers);
  if (res.status !== 200) throw new Error(await res.text());
  return (await res.json()) as Challenge;
}

describe('SIWE sign-in and sessions (the contract: authentication, states and transitions)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Sign-in routes are Auth tier (20 a minute for an anonymous IP): this file signs in more often than that.
    server = await startTestServer({
      JWT_SECRET,
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a challenge holds a nonce valid 5 minutes, the domain and URI of this server, version 1 and chain 1', async () => {
    const res = await server.get('/api/auth/siwe/challenge');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('auth');
    const c = await res.json();
    const host = new URL(server.url).host;
    expect(c).toMatchObject({ domain: host, uri: server.url, version: '1', chainId: 1 });
    expect(c.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(Date.parse(c.expiresAt) - Date.parse(c.issuedAt)).toBe(FIVE_MINUTES);
  });

  it('a wallet signs the message with viem and gets a 24-hour JWT session for its address', async () => {
    const wallet = newWallet();
    const challenge = await getChallenge(server);
    const message = messageFor(wallet, challenge);
    const res = await verify(server, message, await wallet.signMessage({ message }));
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(session).toMatchObject({ success: true, address: wallet.address });
    expect(session.token.split('.')).toHaveLength(3);
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(DAY - 60_000);
    expect(Date.parse(session.expiresAt) - Date.now()).toBeLessThanOrEqual(DAY);

    const status = await (await server.get('/api/auth/session', bearer(session.token))).json();
    expect(status).toMatchObject({
      authenticated: true,
      address: wallet.address,
      tier: 'siwe',
      limits: { daily: 200, perMinute: 60 },
    });
    expect(status.expiresIn).toBeGreaterThan(DAY / 1000 - 60);
  });

  it('a nonce can be used once: the same signed message again is INVALID_NONCE (401)', async () => {
    const wallet = newWallet();
    const message = messageFor(wallet, await getChallenge(server));
    const signature = await wallet.signMessage({ message });
    expect((await verify(server, message, signature)).status).toBe(200);
    const again = await verify(server, message, signature);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: true, code: 'INVALID_NONCE' });
  });

  it('a nonce this server never issued, or one past its 5 minutes, is INVALID_NONCE', async () => {
    const wallet = newWallet();
    const challenge = await getChallenge(server);
    const unknown = messageFor(wallet, { ...challenge, nonce: 'NeverIssued12345' });
    const res = await verify(server, unknown, await wallet.signMessage({ message: unknown }));
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('INVALID_NONCE');

    // Fixture: a nonce issued six minutes ago, written straight to the store.
    const issuedAt = Date.now() - 6 * 60 * 1000;
    await server.store.putNonce({
      nonce: 'ExpiredNonce1234',
      domain: challenge.domain,
      uri: challenge.uri,
      chainId: challenge.chainId,
      issuedAt,
      expiresAt: issuedAt + FIVE_MINUTES,
    });
    const late = messageFor(wallet, {
      ...challenge,
      nonce: 'ExpiredNonce1234',
      issuedAt: new Date(issuedAt).toISOString(),
    });
    const expired = await verify(server, late, await wallet.signMessage({ message: late }));
    expect(expired.status).toBe(401);
    expect((await expired.json()).code).toBe('INVALID_NONCE');
  });

  it('the message domain must equal the challenge domain: DOMAIN_MISMATCH (401)', async () => {
    const wallet = newWallet();
    const message = messageFor(wallet, await getChallenge(server), { domain: 'evil.example' });
    const res = await verify(server, message, await wallet.signMessage({ message }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'DOMAIN_MISMATCH' });
  });

  it('a message issued before its challenge is EXPIRED_MESSAGE (401), and so is one past its expiration time', async () => {
    const wallet = newWallet();
    const challenge = await getChallenge(server);
    const old = messageFor(wallet, challenge, { issuedAt: new Date(Date.parse(challenge.issuedAt) - 60_000) });
    const res = await verify(server, old, await wallet.signMessage({ message: old }));
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('EXPIRED_MESSAGE');

    const past = messageFor(wallet, await getChallenge(server), { expirationTime: new Date(Date.now() - 1000) });
    const expired = await verify(server, past, await wallet.signMessage({ message: past }));
    expect(expired.status).toBe(401);
    expect((await expired.json()).code).toBe('EXPIRED_MESSAGE');
  });

  it('a signature by another wallet, or one that is not a signature, is INVALID_SIGNATURE (401)', async () => {
    const wallet = newWallet();
    const message = messageFor(wallet, await getChallenge(server));
    const res = await verify(server, message, await newWallet().signMessage({ message }));
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('INVALID_SIGNATURE');

    const other = messageFor(wallet, await getChallenge(server));
    const garbage = await verify(server, other, '0xdeadbeef');
    expect(garbage.status).toBe(401);
    expect((await garbage.json()).code).toBe('INVALID_SIGNATURE');
  });

  it('a message signed by no one does not burn the pending nonce: the wallet still signs in with its challenge', async () => {
    const wallet = newWallet();
    const message = messageFor(wallet, await getChallenge(server));
    // Anyone who sees the pending challenge (a shared screen, a relayed page) sends it with a bad signature first.
    for (const signature of ['0xdeadbeef', await newWallet().signMessage({ message })]) {
      const burnt = await verify(server, message, signature);
      expect((await burnt.json()).code).toBe('INVALID_SIGNATURE');
    }
    const signedIn = await verify(server, message, await wallet.signMessage({ message }));
    expect(signedIn.status).toBe(200);
    const again = await verify(server, message, await wallet.signMessage({ message }));
    expect((await again.json()).code).toBe('INVALID_NONCE');
  });

  it('a phishing site that relays the challenge with its own Host gets this server’s domain, so its signature is refused', async () => {
    const relayed = await getWithHost(server, '/api/auth/siwe/challenge', { host: 'login-phish.example' });
    expect(relayed).toMatchObject({ domain: new URL(server.url).host, uri: server.url });
    // The victim signs what the phishing page shows: a message for the phishing domain, with the relayed nonce.
    const wallet = newWallet();
    const phished = messageFor(wallet, relayed, { domain: 'login-phish.example', uri: 'https://login-phish.example' });
    const res = await verify(server, phished, await wallet.signMessage({ message: phished }));
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('DOMAIN_MISMATCH');
  });

  it('a message for the right domain but another URI, chain or version is INVALID_MESSAGE (401)', async () => {
    const wallet = newWallet();
    const others = [
      messageFor(wallet, await getChallenge(server), { uri: 'https://login-phish.example' }),
      messageFor(wallet, await getChallenge(server), { chainId: 8453 }),
      messageFor(wallet, await getChallenge(server), { chainId: 10 }),
      messageFor(wallet, await getChallenge(server)).replace('\nVersion: 1\n', '\nVersion: 2\n'),
    ];
    for (const message of others) {
      const res = await verify(server, message, await wallet.signMessage({ message }));
      expect(res.status, message).toBe(401);
      expect((await res.json()).code, message).toBe('INVALID_MESSAGE');
    }
  });

  it('text that is not an EIP-4361 message is INVALID_MESSAGE (401); a missing field is INVALID_PARAMETER (400)', async () => {
    const res = await verify(server, 'please let me in', '0x00');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_MESSAGE' });
    const missing = await server.post('/api/auth/siwe/verify', { message: 'x' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).code).toBe('INVALID_PARAMETER');
  });

  it('refresh gives a new token and expiry without a new signature, and the old token ends', async () => {
    const session = await signIn(server);
    await new Promise((r) => setTimeout(r, 1100)); // JWT times are whole seconds
    const res = await server.post('/api/auth/siwe/refresh', {}, bearer(session.token));
    expect(res.status).toBe(200);
    const refreshed = await res.json();
    expect(refreshed).toMatchObject({ success: true });
    expect(refreshed.token).not.toBe(session.token);
    expect(Date.parse(refreshed.expiresAt)).toBeGreaterThan(Date.parse(session.expiresAt));
    expect((await server.get('/api/auth/session', bearer(refreshed.token))).status).toBe(200);
    expect((await server.get('/api/auth/session', bearer(session.token))).status).toBe(401);
  });

  it('logout terminates the session: the token is refused afterwards', async () => {
    const session = await signIn(server);
    const res = await server.post('/api/auth/siwe/logout', {}, bearer(session.token));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, message: expect.stringMatching(/terminated/i) });
    const after = await server.get('/api/me', bearer(session.token));
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a session past its 24 hours is TOKEN_EXPIRED (401); a forged token is UNAUTHORIZED (401)', async () => {
    const { address } = newWallet();
    const now = Math.floor(Date.now() / 1000);
    const [sessionId, tokenId] = [randomUUID(), randomUUID()];
    // Fixture: the session the tokens below belong to, open in the store.
    await server.store.openSession({ sessionId, tokenId, expiresAt: (now + 3600) * 1000, now: now * 1000 });
    const sign = (secret: string, exp: number) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(address)
        .setJti(tokenId)
        .setIssuer('chain-identity-api')
        .setAudience('siwe-session')
        .setIssuedAt(exp - 86_400)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(secret));
    const expired = await server.get('/api/me', bearer(await sign(JWT_SECRET, now - 10)));
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    const forged = await server.get(
      '/api/me',
      bearer(await sign('another-secret-of-at-least-32-characters', now + 3600)),
    );
    expect(forged.status).toBe(401);
    expect((await forged.json()).code).toBe('UNAUTHORIZED');
    expect((await server.get('/api/me', bearer(await sign(JWT_SECRET, now + 3600)))).status).toBe(200);
  });

  it('garbage credentials are a 401, never a 5xx and never an anonymous call', async () => {
    const garbage = [
      'Bearer',
      'Bearer a.b.c',
      `Bearer ${'x'.repeat(4000)}`,
      'bearer %%%',
      'Bearer eyJhbGciOiJub25lIn0.e30.',
    ];
    for (const authorization of garbage) {
      const res = await server.get('/api/me', { authorization });
      expect(res.status, authorization.slice(0, 30)).toBe(401);
      expect((await res.json()).code).toBe('UNAUTHORIZED');
    }
    const repeated = await fetch(`${server.url}/api/me`, {
      headers: [
        ['x-api-key', 'a'],
        ['x-api-key', 'b'],
      ],
    });
    expect(repeated.status).toBe(401);
    expect((await repeated.json()).code).toBe('INVALID_API_KEY');
  });

  it('/api/me and /api/me/usage need a session; with one they describe the wallet and its calls today', async () => {
    expect((await server.get('/api/me')).status).toBe(401);
    const session = await signIn(server);
    const me = await server.get('/api/me', bearer(session.token));
    expect(me.status).toBe(200);
    expect(me.headers.get('x-ratelimit-tier')).toBe('light');
    expect(me.headers.get('x-ratelimit-global-limit')).toBe('200');
    expect(await me.json()).toMatchObject({
      address: session.address,
      apiKeyCount: 0,
      tier: 'siwe',
      limits: { daily: 200, perMinute: 60 },
    });
    const usage = await (await server.get('/api/me/usage', bearer(session.token))).json();
    // The call to /api/me and this one are counted against the wallet.
    expect(usage).toMatchObject({ address: session.address, used: 2, limit: 200, remaining: 198, apiKeys: [] });
    expect(usage.resetsAt).toBe(new Date(Math.ceil(Date.now() / DAY) * DAY).toISOString());
  });

  it('without a token /api/auth/session says not authenticated', async () => {
    const res = await server.get('/api/auth/session');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ authenticated: false, address: null, tier: 'anonymous' });
  });

  it('the older family runs the same sign-in: GET and POST /api/auth/nonce, POST /api/auth/verify, POST /api/auth/apikey', async () => {
    for (const res of [await server.get('/api/auth/nonce'), await server.post('/api/auth/nonce', {})]) {
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'nonce']);
    }
    const wallet = newWallet();
    const { nonce } = await (await server.post('/api/auth/nonce', {})).json();
    const challenge = await getChallenge(server);
    const message = messageFor(wallet, { ...challenge, nonce, issuedAt: new Date().toISOString() });
    const res = await server.post('/api/auth/verify', { message, signature: await wallet.signMessage({ message }) });
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(Object.keys(session).sort()).toEqual(['address', 'expiresAt', 'token']);
    // The nonce is the same single-use nonce as the documented family's.
    const replay = await verify(server, message, await wallet.signMessage({ message }));
    expect((await replay.json()).code).toBe('INVALID_NONCE');

    const key = await server.post('/api/auth/apikey', { name: 'legacy' }, bearer(session.token));
    expect(key.status).toBe(200);
    expect((await key.json()).key).toMatchObject({
      name: 'legacy',
      credits: 0,
      key: expect.stringMatching(/^sk_live_/),
    });
  });

  it('sign-in is the same over /graphql', async () => {
    const wallet = newWallet();
    const challenge = (
      await (
        await server.post('/graphql', { query: 'mutation { siweChallenge { nonce domain uri issuedAt chainId } }' })
      ).json()
    ).data.siweChallenge;
    const message = messageFor(wallet, { ...challenge, version: '1', expiresAt: '' });
    const signature = await wallet.signMessage({ message });
    const res = await server.post('/graphql', {
      query: 'mutation ($m: String!, $s: String!) { siweVerify(message: $m, signature: $s) { token address } }',
      variables: { m: message, s: signature },
    });
    const { data } = await res.json();
    expect(data.siweVerify.address).toBe(wallet.address);
    const me = await (
      await server.post('/graphql', { query: '{ me { address } }' }, bearer(data.siweVerify.token))
    ).json();
    expect(me.data.me.address).toBe(wallet.address);
    const anonymous = await (await server.post('/graphql', { query: '{ me { address } }' })).json();
    expect(anonymous.errors[0].extensions).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('the relying party SIWE names comes from configuration (SIWE_DOMAIN, SIWE_URI)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a proxy (TRUST_PROXY): X-Forwarded-Host is believed for client IPs, never for the sign-in domain.
    server = await startTestServer({
      JWT_SECRET,
      TRUST_PROXY: 'true',
      SIWE_DOMAIN: 'app.example.com',
      SIWE_URI: 'https://app.example.com/login',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('every challenge names the configured domain and URI, whatever Host or X-Forwarded-Host is sent', async () => {
    const direct = await getChallenge(server);
    const relayed = await getWithHost(server, '/api/auth/siwe/challenge', {
      host: 'login-phish.example',
      'x-forwarded-host': 'login-phish.example',
      'x-forwarded-proto': 'https',
    });
    for (const c of [direct, relayed]) {
      expect(c).toMatchObject({ domain: 'app.example.com', uri: 'https://app.example.com/login', chainId: 1 });
    }
  });

  it('a wallet signing for the configured domain and URI signs in; one signing for the server’s own address does not', async () => {
    const wallet = newWallet();
    const message = messageFor(wallet, await getChallenge(server));
    expect((await verify(server, message, await wallet.signMessage({ message }))).status).toBe(200);
    const own = new URL(server.url);
    const wrong = messageFor(wallet, await getChallenge(server), { domain: own.host, uri: own.origin });
    const res = await verify(server, wrong, await wallet.signMessage({ message: wrong }));
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('DOMAIN_MISMATCH');
  });
});
