import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const REDIS_URL = TEST_REDIS_URL;
/**
 * Sign-ins and refreshes are Auth tier: these races make more of them a minute than the contract's limits allow
 * (docs/api-contract.md#limits-by-access-mode).
 */
const RACE_ENV = {
  ANONYMOUS_DAILY_LIMIT: '100000',
  ANONYMOUS_PER_MINUTE_LIMIT: '100000',
  SIWE_DAILY_LIMIT: '100000',
  SIWE_PER_MINUTE_LIMIT: '100000',
};
const TRIALS = 5;

/** `count` calls of `path` at once with one token, spread round-robin over the instances. */
function race(servers: TestServer[], count: number, path: string, token: string): Promise<Response[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => servers[i % servers.length]!.post(path, {}, bearer(token))),
  );
}

/** The tokens handed out by the refreshes that succeeded. */
async function refreshedTokens(answers: Response[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const res of answers) {
    const body = await res.json();
    if (res.status === 200) tokens.push(body.token);
    else expect(body.code).toBe('UNAUTHORIZED');
  }
  return tokens;
}

/** Whether a token still opens a session on any of the instances. */
async function works(servers: TestServer[], token: string): Promise<boolean> {
  const answers = await Promise.all(servers.map((s) => s.get('/api/me', bearer(token))));
  return answers.some((res) => res.status === 200);
}

function describeSessionRaces(name: string, start: () => Promise<TestServer[]>, stop: () => Promise<void>): void {
  describe(`refresh and logout races (${name})`, () => {
    let servers: TestServer[];
    beforeAll(async () => {
      servers = await start();
    });
    afterAll(stop);

    it('20 concurrent refreshes of one token: exactly one succeeds, and only its token works afterwards', async () => {
      const won: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const session = await signIn(servers[0]!);
        const tokens = await refreshedTokens(await race(servers, 20, '/api/auth/siwe/refresh', session.token));
        won.push(tokens.length);
        if (tokens.length !== 1) continue;
        expect(await works(servers, tokens[0]!)).toBe(true);
        expect(await works(servers, session.token)).toBe(false);
      }
      console.log(`${name}: successful refreshes per trial of 20 concurrent refreshes →`, won);
      expect(won).toEqual(Array(TRIALS).fill(1));
    });

    it('a refreshed token cannot be refreshed again', async () => {
      const session = await signIn(servers[0]!);
      const first = await servers[0]!.post('/api/auth/siwe/refresh', {}, bearer(session.token));
      expect(first.status).toBe(200);
      const again = await servers.at(-1)!.post('/api/auth/siwe/refresh', {}, bearer(session.token));
      expect(again.status).toBe(401);
      expect((await again.json()).code).toBe('UNAUTHORIZED');
    });

    it('a logout racing 10 refreshes ends the whole session: no token derived from it works afterwards', async () => {
      const survivors: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const session = await signIn(servers[0]!);
        const logout = servers.at(-1)!.post('/api/auth/siwe/logout', {}, bearer(session.token));
        const refreshes = race(servers, 10, '/api/auth/siwe/refresh', session.token);
        const [loggedOut, answers] = await Promise.all([logout, refreshes]);
        expect(loggedOut.status).toBe(200);
        const tokens = [session.token, ...(await refreshedTokens(answers))];
        const alive = (await Promise.all(tokens.map((t) => works(servers, t)))).filter(Boolean).length;
        survivors.push(alive);
      }
      console.log(`${name}: tokens still working after a logout raced 10 refreshes, per trial →`, survivors);
      expect(survivors).toEqual(Array(TRIALS).fill(0));
    });

    it('a logout with a token that was refreshed away still ends the session its refresh continues', async () => {
      const session = await signIn(servers[0]!);
      const refreshed = await (await servers[0]!.post('/api/auth/siwe/refresh', {}, bearer(session.token))).json();
      const loggedOut = await servers.at(-1)!.post('/api/auth/siwe/logout', {}, bearer(session.token));
      expect(loggedOut.status).toBe(200);
      expect(await works(servers, refreshed.token)).toBe(false);
      // The refreshed-away token opens nothing else.
      const me = await servers[0]!.get('/api/me', bearer(session.token));
      expect(me.status).toBe(401);
    });

    it('over /graphql too: a logout mutation with a refreshed-away token ends the session; nothing else accepts it', async () => {
      const session = await signIn(servers[0]!);
      const refreshed = await (await servers[0]!.post('/api/auth/siwe/refresh', {}, bearer(session.token))).json();
      const mixed = await servers.at(-1)!.post(
        '/graphql',
        { query: 'mutation { logout { success } }' },
        {
          ...bearer(session.token),
        },
      );
      expect((await mixed.json()).data.logout.success).toBe(true);
      expect(await works(servers, refreshed.token)).toBe(false);

      const other = await signIn(servers[0]!);
      await servers[0]!.post('/api/auth/siwe/refresh', {}, bearer(other.token));
      const query = '{ me { address } }';
      const me = await (await servers.at(-1)!.post('/graphql', { query }, bearer(other.token))).json();
      expect(me.errors[0].extensions.code).toBe('UNAUTHORIZED');
    });
  });
}

let sqlite: TestServer | undefined;
describeSessionRaces(
  'SQLite, one instance',
  async () => {
    sqlite = await startTestServer(RACE_ENV);
    return [sqlite];
  },
  async () => {
    await sqlite?.close();
  },
);

const storePrefix = testKeyPrefix('session-races');
let shared: TestServer[] = [];
describeSessionRaces(
  'Redis, two instances',
  async () => {
    shared = await Promise.all([
      startTestServer({ ...RACE_ENV, REDIS_URL }, { storePrefix }),
      startTestServer({ ...RACE_ENV, REDIS_URL }, { storePrefix }),
    ]);
    return shared;
  },
  async () => {
    await Promise.all(shared.map((s) => s.close()));
    await deleteKeysUnder(REDIS_URL, storePrefix);
  },
);
