import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { expectEnvelope } from '../helpers/error-envelope.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const USER_FIELDS = [
  'activeStatus',
  'bio',
  'displayName',
  'fid',
  'followers',
  'following',
  'pfp',
  'registeredAt',
  'username',
  'verifications',
];
const CAST_FIELDS = ['embeds', 'hash', 'likes', 'recasts', 'replies', 'text', 'timestamp'];
const ALICE_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const VITALIK_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
/** Alice's FID was registered at this block time: Neynar's `registered_at` and the hub's Register event agree. */
const ALICE_REGISTERED_AT = '2024-03-18T09:12:07.000Z';
const NEWEST_CAST_OF_DWR = {
  hash: '0x423fe84384f67b8deed49a16b02bac9e228fa0c6',
  text: 'gm',
  timestamp: '2025-06-02T11:00:00.000Z',
};

interface User {
  fid: number;
  username: string;
  followers: number | null;
  verifications: string[];
}
interface Cast {
  hash: string;
  text: string;
  timestamp: string;
  likes: number | null;
  embeds: { url: string | null; castId: { fid: number; hash: string } | null }[];
  author?: { fid: number; username: string };
}

const neynarCalls = (server: TestServer) => server.replay!.requestCount('neynar');
const hubCalls = (server: TestServer) => server.replay!.requestCount('farcaster-hub');

describe('Farcaster: users, casts, followers, search and feed from Neynar (recorded replies)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.replay!.resetCounts());

  it("GET /api/farcaster/{username} answers the user with exactly the contract's fields, addresses checksummed, Medium tier, cacheable 5 minutes", async () => {
    const res = await server.get('/api/farcaster/dwr');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('medium');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const user = await res.json();
    expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    expect(user).toMatchObject({
      fid: 3,
      username: 'dwr',
      displayName: 'Dan Romero',
      bio: 'Working on Farcaster. Say hi!',
      followers: 476312,
      following: 2910,
      activeStatus: 'active',
    });
    expect(user.pfp).toMatch(/^https:\/\//);
    // Neynar writes addresses in lower case and lists a Solana one too; we answer Ethereum ones, EIP-55.
    expect(user.verifications).toEqual([
      '0xA320ac64Cc3857c7eE99Ef518b7562a57ec4DFF4',
      '0x8293aAF29aedAf7354FA7c05c68643f0C3056BDD',
    ]);
    expect(neynarCalls(server)).toBe(1);
  });

  it('the identifier is detected: digits are a FID, 0x and 40 hex digits a verified address in any case, @name always a username', async () => {
    const byFid = await (await server.get('/api/farcaster/5650')).json();
    expect(byFid).toMatchObject({ fid: 5650, username: 'vitalik.eth' });
    for (const address of [VITALIK_ADDRESS, VITALIK_ADDRESS.toLowerCase()]) {
      expect(await (await server.get(`/api/farcaster/${address}`)).json()).toMatchObject({
        fid: 5650,
        verifications: [VITALIK_ADDRESS],
      });
    }
    expect(await (await server.get('/api/farcaster/VITALIK.eth')).json()).toMatchObject({ fid: 5650 });
    // An fname made only of digits is a FID unless written with @.
    expect(await (await server.get('/api/farcaster/@1234')).json()).toMatchObject({ fid: 880003, username: '1234' });
    await expectEnvelope(await server.get('/api/farcaster/1234'), 404, 'NOT_FOUND');
    expect(await (await server.get('/api/farcaster/user/3')).json()).toMatchObject({ fid: 3, username: 'dwr' });
  });

  it('an unknown user is 404; a bad FID, username or address checksum is 400 INVALID_PARAMETER', async () => {
    for (const unknown of ['nobody-here', '999999', '0x0000000000000000000000000000000000000001', '@search']) {
      await expectEnvelope(await server.get(`/api/farcaster/${unknown}`), 404, 'NOT_FOUND');
    }
    for (const bad of [
      '0',
      '2147483648',
      'not a name',
      'way-too-long-for-an-fname',
      '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046'.replace('d8dA', 'D8dA'),
    ]) {
      await expectEnvelope(await server.get(`/api/farcaster/${encodeURIComponent(bad)}`), 400, 'INVALID_PARAMETER');
    }
    for (const bad of [
      '/api/farcaster/user/0',
      '/api/farcaster/user/abc',
      '/api/farcaster/-3/casts',
      '/api/farcaster/3/casts?limit=0',
      '/api/farcaster/3/casts?limit=101',
      '/api/farcaster/3/followers?limit=x',
    ]) {
      await expectEnvelope(await server.get(bad), 400, 'INVALID_PARAMETER');
    }
    await expectEnvelope(await server.get('/api/farcaster/999999/casts'), 404, 'NOT_FOUND');
    await expectEnvelope(await server.get('/api/farcaster/user/999999/followers'), 404, 'NOT_FOUND');
  });

  it('GET /api/farcaster/{fid}/casts answers { casts } newest first with likes, recasts, replies and embeds', async () => {
    const res = await server.get('/api/farcaster/3/casts?limit=5');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const { casts } = (await res.json()) as { casts: Cast[] };
    expect(casts).toHaveLength(5);
    for (const cast of casts) expect(Object.keys(cast).sort()).toEqual(CAST_FIELDS);
    expect(casts[0]).toEqual({ ...NEWEST_CAST_OF_DWR, likes: 3, recasts: 0, replies: 0, embeds: [] });
    expect(casts[1]!.embeds).toEqual([{ url: 'https://i.imgur.com/83626922.png', castId: null }]);
    expect(casts[3]!.embeds).toEqual([
      { url: null, castId: { fid: 2, hash: '0x49b2a57a1018177721a64551f46dc68b3299b7e0' } },
    ]);
    const times = casts.map((c) => Date.parse(c.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Default limit 20; 100 walks Neynar's pages of 25 to the end (30 casts).
    expect((await (await server.get('/api/farcaster/3/casts')).json()).casts).toHaveLength(20);
    server.replay!.resetCounts();
    expect((await (await server.get('/api/farcaster/3/casts?limit=100')).json()).casts).toHaveLength(30);
    expect(neynarCalls(server)).toBe(2);
  });

  it('GET /api/farcaster/{fid}/followers answers { users } from ONE followers call and ONE user/bulk call', async () => {
    const { users } = (await (await server.get('/api/farcaster/880001/followers')).json()) as { users: User[] };
    expect(users.map((u) => [u.fid, u.username])).toEqual([
      [880002, 'bob'],
      [3, 'dwr'],
      [10001, 'ana0'],
    ]);
    for (const user of users) expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    // The followers reply carries full users; the one user/bulk call checks that FID 880001 exists.
    expect(neynarCalls(server)).toBe(2);
    const page = (await (await server.get('/api/farcaster/3/followers')).json()) as { users: User[] };
    expect(page.users.map((u) => u.fid)).toEqual(Array.from({ length: 20 }, (_, i) => 10001 + i));
  });

  it('the /user/{fid}/… aliases paginate by offset: { data, pagination: { limit, offset, total, hasMore } }', async () => {
    const middle = await (await server.get('/api/farcaster/user/3/followers?limit=10&offset=15')).json();
    expect(middle.data.map((u: User) => u.fid)).toEqual(Array.from({ length: 10 }, (_, i) => 10016 + i));
    expect(middle.pagination).toEqual({ limit: 10, offset: 15, total: 476312, hasMore: true });
    const last = await (await server.get('/api/farcaster/user/3/followers?limit=10&offset=40')).json();
    expect(last.data).toHaveLength(5);
    expect(last.pagination).toEqual({ limit: 10, offset: 40, total: 476312, hasMore: false });

    const firstPage = await (await server.get('/api/farcaster/user/3/casts')).json();
    expect(firstPage.data).toHaveLength(20);
    expect(firstPage.data[0]).toMatchObject(NEWEST_CAST_OF_DWR);
    expect(firstPage.pagination).toEqual({ limit: 20, offset: 0, total: null, hasMore: true });
    const tail = await (await server.get('/api/farcaster/user/3/casts?offset=25&limit=20')).json();
    expect(tail.data).toHaveLength(5);
    expect(tail.pagination).toEqual({ limit: 20, offset: 25, total: null, hasMore: false });
    await expectEnvelope(await server.get('/api/farcaster/user/3/casts?offset=1001'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/farcaster/user/3/casts?offset=-1'), 400, 'INVALID_PARAMETER');
  });

  it('GET /api/farcaster/search (Heavy tier) answers { type: users, results }; the static path wins over {identifier}', async () => {
    const res = await server.get('/api/farcaster/search?q=vit&type=users');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('heavy');
    const body = await res.json();
    expect(body.type).toBe('users');
    expect(body.results.map((u: User) => u.username)).toEqual(['vitalik.eth', 'vic21']);
    expect(await (await server.get('/api/farcaster/search?q=d&limit=3')).json()).toMatchObject({
      results: [{ fid: 3 }, { fid: 10001 }, { fid: 10002 }],
    });
    expect((await (await server.get('/api/farcaster/search?q=zzzz')).json()).results).toEqual([]);
    for (const bad of ['', '?q=', '?q=vit&type=casts', '?q=vit&limit=11', `?q=${'a'.repeat(101)}`]) {
      await expectEnvelope(await server.get(`/api/farcaster/search${bad}`), 400, 'INVALID_PARAMETER');
    }
  });

  it('GET /api/farcaster/feed pages with a cursor: { data, cursor }, each cast with its author, no extra user call', async () => {
    const first = await (await server.get('/api/farcaster/feed?limit=10')).json();
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).toMatchObject({
      ...NEWEST_CAST_OF_DWR,
      author: { fid: 3, username: 'dwr', displayName: 'Dan Romero' },
    });
    expect(new Set(first.data.map((c: Cast) => c.author!.fid)).size).toBe(10);
    expect(typeof first.cursor).toBe('string');
    // Authors come inside Neynar's feed reply: one upstream request for the whole page.
    expect(neynarCalls(server)).toBe(1);

    const second = await (
      await server.get(`/api/farcaster/feed?limit=10&cursor=${encodeURIComponent(first.cursor)}`)
    ).json();
    expect(second.data).toHaveLength(5);
    expect(second.cursor).toBeNull();
    expect(second.data.map((c: Cast) => c.hash)).not.toContain(first.data[0].hash);

    for (const bad of ['garbage', 'eyJ0cmVuZGluZyI6MTB9', `${first.cursor.slice(0, -1)}0`]) {
      await expectEnvelope(
        await server.get(`/api/farcaster/feed?cursor=${encodeURIComponent(bad)}`),
        400,
        'INVALID_PARAMETER',
      );
    }
  });

  it('POST /graphql resolves many users by FID with ONE Neynar user/bulk call, and a user with recent casts in one query', async () => {
    const query = `{
      a: farcasterUserByFid(fid: 3) { username }
      b: farcasterUserByFid(fid: 2) { username }
      c: farcasterUserByFid(fid: 10030) { username followers }
      d: farcasterUser(identifier: "880001") { username }
      e: farcasterUserByFid(fid: 424242) { username }
    }`;
    const { data, errors } = await (await server.post('/graphql', { query })).json();
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      a: { username: 'dwr' },
      b: { username: 'v' },
      c: { username: 'dee29', followers: 213 },
      d: { username: 'alice' },
      e: null,
    });
    expect(neynarCalls(server)).toBe(1);

    server.replay!.resetCounts();
    const profile = await (
      await server.post('/graphql', {
        query:
          '{ farcasterUser(identifier: "alice") { fid recentCasts(limit: 3) { hash timestamp author { username } } } }',
      })
    ).json();
    expect(profile.data.farcasterUser.fid).toBe(880001);
    expect(profile.data.farcasterUser.recentCasts).toHaveLength(3);
    expect(profile.data.farcasterUser.recentCasts[0].author).toEqual({ username: 'alice' });
    expect(neynarCalls(server)).toBe(2);
  });

  it("one GraphQL query returns a name's ENS profile, its Farcaster user and recent casts (Wallet joined by address)", async () => {
    const query = `{ ensProfile(name: "alice.eth") { name address wallet { address primaryName farcasterUser { fid username verifications recentCasts(limit: 2) { hash text } } } } }`;
    const { data, errors } = await (await server.post('/graphql', { query })).json();
    expect(errors).toBeUndefined();
    expect(data.ensProfile).toMatchObject({
      name: 'alice.eth',
      address: ALICE_ADDRESS,
      wallet: {
        address: ALICE_ADDRESS,
        primaryName: 'alice.eth',
        farcasterUser: { fid: 880001, username: 'alice', verifications: [ALICE_ADDRESS] },
      },
    });
    expect(data.ensProfile.wallet.farcasterUser.recentCasts).toHaveLength(2);
    // One user/bulk-by-address call and one casts call.
    expect(neynarCalls(server)).toBe(2);

    const full = await server.get('/api/profile/full/alice.eth');
    expect(full.status).toBe(200);
    const profile = await full.json();
    expect(profile.wallet.farcasterUser).toMatchObject({
      fid: 880001,
      username: 'alice',
      displayName: 'Alice (demo)',
      followers: 3,
      following: 2,
    });
    expect(profile.wallet.farcasterUser.recentCasts).toHaveLength(5);
    expect(Object.keys(profile.wallet.farcasterUser.recentCasts[0]).sort()).toEqual(['hash', 'text', 'timestamp']);
    // A name whose wallet no Farcaster user verified has a null farcasterUser.
    const carol = await (await server.get('/api/profile/full/carol.eth')).json();
    expect(carol.wallet?.farcasterUser ?? null).toBeNull();
  });

  it("a Farcaster user's verified wallets carry their primary ENS names (FarcasterUser → Wallet → ENS)", async () => {
    const query = '{ farcasterUser(identifier: "alice") { fid verifiedWallets { address primaryName } } }';
    const { data, errors } = await (await server.post('/graphql', { query })).json();
    expect(errors).toBeUndefined();
    expect(data.farcasterUser).toEqual({
      fid: 880001,
      verifiedWallets: [{ address: ALICE_ADDRESS, primaryName: 'alice.eth' }],
    });
  });

  it('GET /api/sources/health lists neynar and farcaster-hub as social sources served by the local replay', async () => {
    const { sources } = await (await server.get('/api/sources/health')).json();
    for (const name of ['neynar', 'farcaster-hub']) {
      expect(sources.find((s: { name: string }) => s.name === name)).toMatchObject({ kind: 'social', mode: 'local' });
    }
  });

  it('the profile routes are priced at $0.01 (the contract prices a social profile so); the others carry the default price', async () => {
    const { accepts } = await (await server.get('/.well-known/x402')).json();
    const price = (path: string) => accepts.find((a: { path: string }) => a.path === path)?.priceUSD;
    expect(price('/api/farcaster/{identifier}')).toBe('0.01');
    expect(price('/api/farcaster/user/{fid}')).toBe('0.01');
  });
});

describe('Farcaster when Neynar fails: rate limits retried, then the hub answers; Neynar-only features 503', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      // Room in one call's deadline for two waits of Neynar's Retry-After (1 s) and three requests on a busy machine.
      UPSTREAM_TIMEOUT_MS: '5000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server.replay!.setScenario('neynar', null);
    server.replay!.setScenario('farcaster-hub', null);
    server.replay!.resetCounts();
  });

  // First: these calls count toward Neynar's circuit breaker, which later tests open.
  it('a Neynar 429 is retried after Retry-After, twice, then the user comes from the hub (no counts there)', async () => {
    server.replay!.setScenario('neynar', 'rate-limited');
    const started = performance.now();
    const res = await server.get('/api/farcaster/alice');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThan(1500);
    expect(neynarCalls(server)).toBe(3);
    const user = await res.json();
    expect(user).toEqual({
      fid: 880001,
      username: 'alice',
      displayName: 'Alice (demo)',
      bio: 'Demo user of the embedded default: verified the address alice.eth resolves to.',
      pfp: expect.stringMatching(/^https:\/\//),
      followers: null,
      following: null,
      verifications: [ALICE_ADDRESS],
      activeStatus: null,
      registeredAt: ALICE_REGISTERED_AT,
    });
    // userNameProofByName, then userDataByFid and verificationsByFid, then onChainEventsByFid for registeredAt.
    expect(hubCalls(server)).toBe(4);
  });

  it("Neynar down: followers come from the hub's follow links, each resolved through the hub", async () => {
    server.replay!.setScenario('neynar', 'down');
    const { users } = (await (await server.get('/api/farcaster/3/followers?limit=5')).json()) as { users: User[] };
    expect(users.map((u) => u.fid)).toEqual([10001, 10002, 10003, 10004, 10005]);
    expect(users[0]).toMatchObject({ username: 'ana0', followers: null });
    // linksByTargetFid once; the hub has no bulk read: userDataByFid + verificationsByFid for FID 3 and each follower,
    // and onChainEventsByFid for each follower's registeredAt (FID 3's own is not asked for).
    expect(hubCalls(server)).toBe(1 + 2 * 6 + 5);
    expect(users[3]).toMatchObject({ fid: 10004, registeredAt: '2023-11-17T22:13:20.000Z' });
  });

  it('a malformed Neynar reply falls back to the hub: casts with Farcaster-epoch times as ISO 8601, no reaction counts', async () => {
    server.replay!.setScenario('neynar', 'malformed');
    const { casts } = (await (await server.get('/api/farcaster/3/casts?limit=3')).json()) as { casts: Cast[] };
    expect(casts).toHaveLength(3);
    // The hub's timestamp 139402800 (seconds since 2021-01-01) is the same instant Neynar reports.
    expect(casts[0]).toEqual({ ...NEWEST_CAST_OF_DWR, likes: null, recasts: null, replies: null, embeds: [] });
    expect(casts[1]!.embeds).toEqual([{ url: 'https://i.imgur.com/83626922.png', castId: null }]);
  });

  it('Neynar down: search and the feed, which only Neynar offers, are 503 SERVICE_UNAVAILABLE', async () => {
    server.replay!.setScenario('neynar', 'down');
    const search = await expectEnvelope(await server.get('/api/farcaster/search?q=vit'), 503, 'SERVICE_UNAVAILABLE');
    expect(search.message).toMatch(/neynar/);
    await expectEnvelope(await server.get('/api/farcaster/feed'), 503, 'SERVICE_UNAVAILABLE');
    await expectEnvelope(await server.get(`/api/farcaster/${ALICE_ADDRESS}`), 503, 'SERVICE_UNAVAILABLE');
  });

  it('Neynar and the hub both down: 503 SERVICE_UNAVAILABLE in the full envelope', async () => {
    server.replay!.setScenario('neynar', 'down');
    server.replay!.setScenario('farcaster-hub', 'down');
    const body = await expectEnvelope(await server.get('/api/farcaster/5650'), 503, 'SERVICE_UNAVAILABLE');
    expect(body.message).toMatch(/farcaster-hub/);
    await expectEnvelope(await server.get('/api/farcaster/5650/casts'), 503, 'SERVICE_UNAVAILABLE');
  });
});

describe("Farcaster registeredAt: Neynar's registered_at, else the hub's ID Registry Register event, asked only when selected", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      // Room in one call's deadline for two waits of Neynar's Retry-After (1 s).
      UPSTREAM_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server.replay!.setScenario('neynar', null);
    server.replay!.setScenario('farcaster-hub', null);
    server.replay!.resetCounts();
  });

  it("GET /api/farcaster/alice answers registeredAt from Neynar's registered_at, with no call beyond the user lookup", async () => {
    const user = await (await server.get('/api/farcaster/alice')).json();
    expect(user).toMatchObject({ fid: 880001, username: 'alice', registeredAt: ALICE_REGISTERED_AT });
    expect(neynarCalls(server)).toBe(1);
    expect(hubCalls(server)).toBe(0);
  });

  it('POST /graphql selecting registeredAt for several users costs ONE Neynar user/bulk call and no hub call', async () => {
    const query = `{
      a: farcasterUserByFid(fid: 3) { registeredAt }
      b: farcasterUserByFid(fid: 2) { registeredAt }
      c: farcasterUserByFid(fid: 880001) { username registeredAt }
      d: farcasterUserByFid(fid: 10030) { registeredAt }
    }`;
    const { data, errors } = await (await server.post('/graphql', { query })).json();
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      a: { registeredAt: '2023-08-29T17:28:43.000Z' },
      b: { registeredAt: '2023-08-29T17:28:41.000Z' },
      c: { username: 'alice', registeredAt: ALICE_REGISTERED_AT },
      d: { registeredAt: '2023-12-13T22:13:20.000Z' },
    });
    expect(neynarCalls(server)).toBe(1);
    expect(hubCalls(server)).toBe(0);
  });

  it('Neynar down: GraphQL asks the hub for registrations only when registeredAt is selected, one call per FID, cached', async () => {
    server.replay!.setScenario('neynar', 'down');
    const users = (fields: string) =>
      `{ a: farcasterUserByFid(fid: 3) { ${fields} } b: farcasterUserByFid(fid: 5650) { ${fields} } c: farcasterUserByFid(fid: 10003) { ${fields} } }`;
    const plain = await (await server.post('/graphql', { query: users('username') })).json();
    expect(plain.errors).toBeUndefined();
    // userDataByFid + verificationsByFid per user; no registration asked.
    expect(hubCalls(server)).toBe(2 * 3);
    server.replay!.resetCounts();
    const { data, errors } = await (await server.post('/graphql', { query: users('fid registeredAt') })).json();
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      a: { fid: 3, registeredAt: '2023-08-29T17:28:43.000Z' },
      b: { fid: 5650, registeredAt: '2023-08-29T17:33:37.000Z' },
      // Registered, then transferred: the Register event's time.
      c: { fid: 10003, registeredAt: '2023-11-16T22:13:20.000Z' },
    });
    expect(hubCalls(server)).toBe(3);
    server.replay!.resetCounts();
    await server.post('/graphql', { query: users('registeredAt') });
    expect(hubCalls(server)).toBe(0);
  });

  it("the hub's ID Registry failing leaves registeredAt null (the hub reported degraded), never the whole user", async () => {
    server.replay!.setScenario('neynar', 'down');
    server.replay!.setScenario('farcaster-hub', 'id-registry-down');
    const res = await server.get('/api/farcaster/10004');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ fid: 10004, username: 'dee3', followers: null, registeredAt: null });
    // userDataByFid and verificationsByFid, then onChainEventsByFid tried three times (two retries of the 503).
    expect(hubCalls(server)).toBe(2 + 3);
    const { sources } = await (await server.get('/api/sources/health')).json();
    expect(sources.find((s: { name: string }) => s.name === 'farcaster-hub')).toMatchObject({ state: 'degraded' });
  });
});

describe('Farcaster in live mode with only a hub configured', () => {
  let replay: ReplayServer;
  let server: TestServer;
  beforeAll(async () => {
    // The recorded hub stands in for a real one reached through FARCASTER_HUB_URL.
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      FARCASTER_HUB_URL: replay.baseUrlFor('farcaster-hub'),
    });
  });
  afterAll(async () => {
    await server?.close();
    await replay?.close();
  });

  it('users and casts come from the hub; search and the feed are 503 naming NEYNAR_API_KEY', async () => {
    expect(await (await server.get('/api/farcaster/alice')).json()).toMatchObject({
      fid: 880001,
      verifications: [ALICE_ADDRESS],
      registeredAt: ALICE_REGISTERED_AT,
    });
    expect((await (await server.get('/api/farcaster/3/casts?limit=2')).json()).casts).toHaveLength(2);
    const search = await expectEnvelope(await server.get('/api/farcaster/search?q=vit'), 503, 'SERVICE_UNAVAILABLE');
    expect(search.message).toMatch(/NEYNAR_API_KEY/);
    const feed = await expectEnvelope(await server.get('/api/farcaster/feed'), 503, 'SERVICE_UNAVAILABLE');
    expect(feed.message).toMatch(/NEYNAR_API_KEY/);
    expect(replay.requestCount('neynar')).toBe(0);
    const { sources } = await (await server.get('/api/sources/health')).json();
    expect(sources.find((s: { name: string }) => s.name === 'farcaster-hub')).toMatchObject({ mode: 'live' });
    expect(sources.find((s: { name: string }) => s.name === 'neynar')).toBeUndefined();
  });
});
