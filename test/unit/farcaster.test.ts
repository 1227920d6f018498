import 'reflect-metadata';
import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFarcasterIdentifier } from '../../src/arguments/farcaster-arguments.js';
import { decodeFeedCursor, encodeFeedCursor } from '../../src/arguments/feed-cursor.js';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { FarcasterHubClient } from '../../src/sources/farcaster/farcaster-hub-client.js';
import { farcasterTimeToIso } from '../../src/sources/farcaster/farcaster-records.js';
import { createFarcasterSources } from '../../src/sources/farcaster/farcaster-sources.js';
import {
  mapHubCasts,
  mapHubFollowerFids,
  mapHubIdRegistration,
  mapHubUserData,
  mapHubVerifications,
} from '../../src/sources/farcaster/hub-replies.js';
import { mapNeynarCast, mapNeynarFollowersPage, mapNeynarUser } from '../../src/sources/farcaster/neynar-replies.js';
import { UnexpectedReplyError } from '../../src/sources/json-reply.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import type { Sources } from '../../src/sources/sources.js';
import { farcasterSubgraph } from '../../subgraphs/farcaster/index.js';
import { buildFederatedSubgraph, buildSubgraph } from '../../subgraphs/shared/build-subgraph.js';
import { newGraphContext } from '../../subgraphs/shared/graph-context.js';

describe('a Farcaster identifier is a username, a FID or an address, detected by its form', () => {
  it('digits are a FID; @ always makes a username; 0x and 40 hex digits an address; anything else a username in lower case', () => {
    expect(parseFarcasterIdentifier('3')).toEqual({ kind: 'fid', fid: 3 });
    expect(parseFarcasterIdentifier('@3')).toEqual({ kind: 'username', username: '3' });
    expect(parseFarcasterIdentifier('DWR')).toEqual({ kind: 'username', username: 'dwr' });
    expect(parseFarcasterIdentifier('vitalik.eth')).toEqual({ kind: 'username', username: 'vitalik.eth' });
    expect(parseFarcasterIdentifier('jesse.base.eth')).toEqual({ kind: 'username', username: 'jesse.base.eth' });
    expect(parseFarcasterIdentifier('0xd8da6bf26964af9d7eed9e03e53415d37aa96045')).toEqual({
      kind: 'address',
      address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    });
  });

  it('refuses FID 0 and beyond 2^31 − 1, a bad checksum, and what no username can be', () => {
    for (const bad of [
      '0',
      '2147483648',
      '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046',
      '-dwr',
      'a_b',
      'seventeen-chars-x',
      '',
      '@',
    ]) {
      expect(() => parseFarcasterIdentifier(bad), bad).toThrow();
    }
  });
});

describe('upstream replies are mapped into our records at the edge', () => {
  it('Farcaster timestamps count seconds from 2021-01-01 UTC', () => {
    expect(farcasterTimeToIso(0)).toBe('2021-01-01T00:00:00.000Z');
    expect(farcasterTimeToIso(139_402_800)).toBe('2025-06-02T11:00:00.000Z');
  });

  it('a Neynar user keeps Ethereum verifications only, checksummed, and empty strings for unset fields', () => {
    const user = mapNeynarUser({
      object: 'user',
      fid: 194,
      username: 'rish',
      follower_count: 10,
      following_count: 2,
      verified_addresses: {
        eth_addresses: ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045'],
        sol_addresses: ['9t92xZy9q5SyfKBH4rZwEDFXjaZKgzj5PgviPhKtBjyy'],
      },
    });
    expect(user).toEqual({
      fid: 194,
      username: 'rish',
      displayName: '',
      bio: '',
      pfp: '',
      followers: 10,
      following: 2,
      verifications: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
      activeStatus: null,
      registeredAt: null,
    });
    expect(() => mapNeynarUser({ username: 'no-fid' })).toThrow(UnexpectedReplyError);
  });

  it('a Neynar cast counts likes, recasts and replies; a followers page unwraps each follow', () => {
    const cast = mapNeynarCast({
      hash: '0xabc',
      text: 'gm',
      timestamp: '2025-06-02T11:00:00Z',
      author: { fid: 3, username: 'dwr' },
      reactions: { likes_count: 7, recasts_count: 2 },
      replies: { count: 1 },
      embeds: [
        { url: 'https://x.y/z.png', metadata: {} },
        { cast: { object: 'cast_embedded', hash: '0xdef', author: { object: 'user_dehydrated', fid: 2 } } },
      ],
    });
    expect(cast).toMatchObject({
      likes: 7,
      recasts: 2,
      replies: 1,
      timestamp: '2025-06-02T11:00:00.000Z',
      authorFid: 3,
    });
    expect(cast.embeds).toEqual([
      { url: 'https://x.y/z.png', castId: null },
      { url: null, castId: { fid: 2, hash: '0xdef' } },
    ]);
    const page = mapNeynarFollowersPage({
      users: [{ object: 'follower', user: { fid: 9, username: 'n' } }],
      next: { cursor: null },
    });
    expect(page).toMatchObject({ items: [{ fid: 9 }], cursor: null });
    expect(() => mapNeynarCast({ hash: '0xabc', timestamp: 'yesterday', author: { fid: 3 } })).toThrow(
      UnexpectedReplyError,
    );
  });

  it('hub messages become profile fields, verified Ethereum addresses, casts without counts and follower FIDs', () => {
    const data = (type: string, value: string) => ({ hash: '0x1', data: { fid: 3, userDataBody: { type, value } } });
    expect(
      mapHubUserData({
        messages: [data('USER_DATA_TYPE_USERNAME', 'dwr'), data('USER_DATA_TYPE_BIO', 'hi')],
        nextPageToken: '',
      }),
    ).toEqual({
      username: 'dwr',
      displayName: '',
      bio: 'hi',
      pfp: '',
    });
    expect(mapHubUserData({ messages: [] })).toBeNull();
    expect(
      mapHubVerifications({
        messages: [
          {
            hash: '0x1',
            data: {
              verificationAddAddressBody: {
                address: '0xd8da6bf26964af9d7eed9e03e53415d37aa96045',
                protocol: 'PROTOCOL_ETHEREUM',
              },
            },
          },
          {
            hash: '0x2',
            data: {
              verificationAddAddressBody: {
                address: '9t92xZy9q5SyfKBH4rZwEDFXjaZKgzj5PgviPhKtBjyy',
                protocol: 'PROTOCOL_SOLANA',
              },
            },
          },
        ],
      }),
    ).toEqual(['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045']);
    const casts = mapHubCasts({
      messages: [
        {
          hash: '0xc',
          data: { fid: 3, timestamp: 0, castAddBody: { text: 'first', embeds: [{ castId: { fid: 2, hash: '0xd' } }] } },
        },
      ],
      nextPageToken: 'AAA=',
    });
    expect(casts).toEqual({
      items: [
        {
          hash: '0xc',
          text: 'first',
          timestamp: '2021-01-01T00:00:00.000Z',
          likes: null,
          recasts: null,
          replies: null,
          embeds: [{ url: null, castId: { fid: 2, hash: '0xd' } }],
          authorFid: 3,
          author: null,
        },
      ],
      cursor: 'AAA=',
    });
    expect(
      mapHubFollowerFids({ messages: [{ hash: '0x1', data: { fid: 77, linkBody: { type: 'follow', targetFid: 3 } } }] })
        .items,
    ).toEqual([77]);
    expect(() => mapHubCasts({ message: [] })).toThrow(UnexpectedReplyError);
  });

  it("a Neynar user's activeStatus comes from its user score: active from 0.5 up, inactive below, null without a score", () => {
    const user = { object: 'user', fid: 3, username: 'dwr' };
    expect(mapNeynarUser({ ...user, score: 0.5 }).activeStatus).toBe('active');
    expect(mapNeynarUser({ ...user, score: 0.49 }).activeStatus).toBe('inactive');
    // Replies from before `score` was promoted carry it under experimental.
    expect(mapNeynarUser({ ...user, experimental: { neynar_user_score: 0.91 } }).activeStatus).toBe('active');
    // The removed active_status field is no longer read.
    expect(mapNeynarUser({ ...user, active_status: 'active' }).activeStatus).toBeNull();
  });

  it("a Neynar user's registered_at becomes registeredAt in ISO 8601; a user without one, or with no date in it, has null", () => {
    const user = {
      object: 'user',
      fid: 880001,
      username: 'alice',
      custody_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    };
    expect(mapNeynarUser({ ...user, registered_at: '2024-03-18T09:12:07Z' }).registeredAt).toBe(
      '2024-03-18T09:12:07.000Z',
    );
    expect(mapNeynarUser(user).registeredAt).toBeNull();
    expect(mapNeynarUser({ ...user, registered_at: 'not a date' }).registeredAt).toBeNull();
  });

  it("the hub's ID Registry events give the registration: the Register event's block time, not a later transfer", () => {
    // As Snapchain's /v1/onChainEventsByFid?event_type=EVENT_TYPE_ID_REGISTER writes them (eventType in its Rust spelling).
    const reply = {
      events: [
        {
          type: 'EVENT_TYPE_ID_REGISTER',
          chainId: 10,
          blockNumber: 112033627,
          blockHash: '0x5d1c0f0bb6f4a4d6e0c1a7f3b0f0a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8',
          blockTimestamp: 1700000000,
          transactionHash: '0x0e6b1b9f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f',
          logIndex: 3,
          fid: 10003,
          idRegisterEventBody: {
            to: '0x1111111111111111111111111111111111111111',
            eventType: 'Register',
            from: '0x',
            recoveryAddress: '0x00000000fcb080a4d6c39a9354da9eb9bc104cd7',
          },
          txIndex: 0,
          version: 0,
        },
        {
          type: 'EVENT_TYPE_ID_REGISTER',
          chainId: 10,
          blockNumber: 113977627,
          blockHash: '0x6e2d1f1cc7f5b5e7f1d2b8f4c1f1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9',
          blockTimestamp: 1703888000,
          transactionHash: '0x1f7c2c0f2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90',
          logIndex: 1,
          fid: 10003,
          idRegisterEventBody: {
            to: '0x2222222222222222222222222222222222222222',
            eventType: 'Transfer',
            from: '0x1111111111111111111111111111111111111111',
            recoveryAddress: '0x00000000fcb080a4d6c39a9354da9eb9bc104cd7',
          },
          txIndex: 0,
          version: 0,
        },
      ],
    };
    expect(mapHubIdRegistration(reply)).toBe('2023-11-14T22:13:20.000Z');
    // Hubble spells the same event ID_REGISTER_EVENT_TYPE_REGISTER.
    const hubble = {
      events: [
        {
          ...reply.events[0],
          idRegisterEventBody: {
            ...reply.events[0]!.idRegisterEventBody,
            eventType: 'ID_REGISTER_EVENT_TYPE_REGISTER',
          },
        },
      ],
    };
    expect(mapHubIdRegistration(hubble)).toBe('2023-11-14T22:13:20.000Z');
    expect(mapHubIdRegistration({ events: [reply.events[1]] })).toBeNull();
    expect(mapHubIdRegistration({ events: [] })).toBeNull();
    expect(() => mapHubIdRegistration({ messages: [] })).toThrow(UnexpectedReplyError);
    expect(() => mapHubIdRegistration({ events: [{ ...reply.events[0], blockTimestamp: '1700000000' }] })).toThrow(
      UnexpectedReplyError,
    );
  });

  it('a feed cursor we handed out decodes to the upstream one; anything else is refused', () => {
    const ours = encodeFeedCursor('eyJ0cmVuZGluZyI6MTB9');
    expect(decodeFeedCursor(ours)).toBe('eyJ0cmVuZGluZyI6MTB9');
    expect(decodeFeedCursor('eyJ0cmVuZGluZyI6MTB9')).toBeUndefined();
    expect(decodeFeedCursor(`${ours.slice(0, -1)}${ours.endsWith('0') ? '1' : '0'}`)).toBeUndefined();
  });
});

describe('the hub answers as Snapchain does', () => {
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(() => replay.close());

  const hubClient = () => {
    const registry = new SourceHealthRegistry();
    const hub = new FarcasterHubClient({
      baseUrl: replay.baseUrlFor('farcaster-hub'),
      mode: 'local',
      registry,
      timeoutMs: 2000,
      policy: { retries: 0 },
    });
    return { hub, health: () => registry.list().find((s) => s.name === 'farcaster-hub')! };
  };

  it("an unknown fname is Snapchain's HTTP 400 with a NotFound detail: no user (our 404), and the hub stays up", async () => {
    replay.setScenario('farcaster-hub', null);
    const { hub, health } = hubClient();
    expect(await hub.fidByUsername('nobody-here')).toBeNull();
    expect(health()).toMatchObject({ state: 'up', lastError: null });
  });

  it('any other 400 from Snapchain is an upstream failure (503), recorded on the hub', async () => {
    replay.setScenario('farcaster-hub', 'refused');
    const { hub, health } = hubClient();
    await expect(hub.fidByUsername('dwr')).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(health().lastError).toBe('HTTP 400 on GET /v1/userNameProofByName');
    replay.setScenario('farcaster-hub', null);
  });
});

describe('the farcaster subgraph joins the supergraph through Wallet (address) and FarcasterUser (fid) entities', () => {
  let replay: ReplayServer;
  let sources: Sources;
  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
    const farcaster = createFarcasterSources({
      neynar: { baseUrl: replay.baseUrlFor('neynar'), mode: 'local' },
      hub: { baseUrl: replay.baseUrlFor('farcaster-hub'), mode: 'local' },
      registry: new SourceHealthRegistry(),
      timeoutMs: 2000,
    });
    sources = { farcaster } as unknown as Sources;
  });
  afterAll(async () => {
    await replay?.close();
  });

  it('declares both keys in its SDL', async () => {
    const { sdl } = await buildSubgraph(farcasterSubgraph);
    expect(sdl).toMatch(/type FarcasterUser @key\(fields: "fid"\)/);
    expect(sdl).toMatch(/type Wallet @key\(fields: "address"\)/);
  });

  it('resolves Wallet references in any case to the verifying user, and FarcasterUser references by FID, in one bulk call each', async () => {
    const { schema } = await buildFederatedSubgraph(farcasterSubgraph);
    const contextValue = newGraphContext({
      requestId: 't',
      sources,
      app: {} as never,
      publicBaseUrl: 'http://localhost',
    });
    replay.resetCounts();
    const result = await execute({
      schema,
      document: parse(`query ($reps: [_Any!]!) {
        _entities(representations: $reps) {
          ... on Wallet { address farcasterUser { fid username } }
          ... on FarcasterUser { fid username followers }
        }
      }`),
      variableValues: {
        reps: [
          { __typename: 'Wallet', address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
          { __typename: 'FarcasterUser', fid: 3 },
          { __typename: 'FarcasterUser', fid: 2 },
        ],
      },
      contextValue,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities).toEqual([
      { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', farcasterUser: { fid: 880001, username: 'alice' } },
      { fid: 3, username: 'dwr', followers: 476312 },
      { fid: 2, username: 'v', followers: 356210 },
    ]);
    expect(replay.requestCount('neynar')).toBe(2);
  });

  it('registeredAt is asked of the hub only when selected and not already in the reply: one onChainEventsByFid call per FID', async () => {
    const { schema } = await buildFederatedSubgraph(farcasterSubgraph);
    // Hub only, fresh caches: users come from userDataByFid + verificationsByFid, without a registration.
    const hubOnly = {
      farcaster: createFarcasterSources({
        neynar: undefined,
        hub: { baseUrl: replay.baseUrlFor('farcaster-hub'), mode: 'local' },
        registry: new SourceHealthRegistry(),
        timeoutMs: 2000,
      }),
    } as unknown as Sources;
    const run = async (fields: string) => {
      const contextValue = newGraphContext({
        requestId: 't',
        sources: hubOnly,
        app: {} as never,
        publicBaseUrl: 'http://localhost',
      });
      const result = await execute({
        schema,
        document: parse(
          `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on FarcasterUser { ${fields} } } }`,
        ),
        variableValues: { reps: [3, 880001, 10003].map((fid) => ({ __typename: 'FarcasterUser', fid })) },
        contextValue,
      });
      expect(result.errors).toBeUndefined();
      return result.data?._entities;
    };
    replay.resetCounts();
    await run('fid username');
    expect(replay.requestCount('farcaster-hub')).toBe(2 * 3);
    replay.resetCounts();
    expect(await run('fid registeredAt')).toEqual([
      { fid: 3, registeredAt: '2023-08-29T17:28:43.000Z' },
      { fid: 880001, registeredAt: '2024-03-18T09:12:07.000Z' },
      // Registered 2023-11-16, transferred 45 days later: the registration is the Register event.
      { fid: 10003, registeredAt: '2023-11-16T22:13:20.000Z' },
    ]);
    // The profiles are cached; only the three registrations are new requests.
    expect(replay.requestCount('farcaster-hub')).toBe(3);
    replay.resetCounts();
    await run('registeredAt');
    expect(replay.requestCount('farcaster-hub')).toBe(0);
  });
});
