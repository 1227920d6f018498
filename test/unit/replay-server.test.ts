import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultRecordingsDir,
  InvalidReplayFixtureError,
  type ReplayServer,
  startReplayServer,
  UnknownReplayScenarioError,
} from '../../src/embedded/replay/replay-server.js';

const PRICE_QUERY = 'vs_currencies=usd&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true';

describe('replay server', () => {
  let replay: ReplayServer;
  const get = (path: string, init?: RequestInit) => fetch(`${replay.baseUrlFor('coingecko')}${path}`, init);

  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(() => replay.close());
  beforeEach(() => {
    replay.setScenario('coingecko', null);
    replay.resetCounts();
  });

  it('finds recordings/ from the project root and serves each source under its own base URL', () => {
    expect(defaultRecordingsDir()).toMatch(/[/\\]recordings$/);
    expect(replay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(replay.baseUrlFor('coingecko')).toBe(`${replay.url}/coingecko`);
  });

  it('answers with the recorded reply whose query matches, ignoring unlisted keys', async () => {
    const both = await get(`/api/v3/simple/price?ids=ethereum,bitcoin&${PRICE_QUERY}`);
    expect(both.status).toBe(200);
    expect(both.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await both.json()) as Record<string, Record<string, number>>;
    expect(Object.keys(body).sort()).toEqual(['bitcoin', 'ethereum']);
    expect(Object.keys(body.ethereum!).sort()).toEqual(['usd', 'usd_24h_change', 'usd_24h_vol', 'usd_market_cap']);

    const eth = await get('/api/v3/simple/price?ids=ethereum&vs_currencies=usd&precision=2');
    expect(await eth.json()).toEqual({ ethereum: { usd: 3012.45 } });
  });

  it("prefers the most specific match and lets '*' match any value of a present key", async () => {
    const unknownCoin = await get('/api/v3/simple/price?ids=not-a-coin&vs_currencies=usd');
    expect(await unknownCoin.json()).toEqual({});

    const missingKey = await get('/api/v3/simple/price?vs_currencies=usd');
    expect(missingKey.status).toBe(404);
  });

  it('tells POSTs to one path apart by the body fields a recording lists (a GraphQL operationName), else the body-less entry', async () => {
    const subgraph = (body: unknown) =>
      fetch(`${replay.baseUrlFor('ens-subgraph')}/subgraphs/name/ensdomains/ens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ data: { domains: Record<string, unknown>[] } }>);
    const records = await subgraph({ operationName: 'RecordsOfNames', query: '…', variables: { names: [] } });
    expect(records.data.domains[0]).toHaveProperty('resolver');
    const domains = await subgraph({ query: '…', variables: { account: '0x…' } });
    expect(domains.data.domains[0]).toHaveProperty('registrant');
  });

  it('answers 404 "no recorded reply" for unknown paths, methods and sources', async () => {
    for (const response of [
      await get('/api/v3/coins/list'),
      await get('/api/v3/ping', { method: 'POST', body: '{}' }),
      await fetch(`${replay.url}/nowhere/api`),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'no recorded reply' });
    }
  });

  it('answers 400 to a malformed path and keeps serving', async () => {
    expect((await fetch(`${replay.url}/%E0%A4%A/x`)).status).toBe(400);
    expect((await get('/api/v3/ping')).status).toBe(200);
  });

  it('switches scenarios in process, and back', async () => {
    replay.setScenario('coingecko', 'down');
    expect((await get('/api/v3/ping')).status).toBe(503);
    expect((await get('/api/v3/simple/price?ids=ethereum&vs_currencies=usd')).status).toBe(503);

    replay.setScenario('coingecko', 'rate-limited');
    const limited = await get('/api/v3/ping');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');

    replay.setScenario('coingecko', 'malformed');
    const malformed = await get('/api/v3/simple/price?ids=ethereum&vs_currencies=usd');
    expect(malformed.status).toBe(200);
    await expect(malformed.clone().json()).rejects.toThrow();
    // A scenario that records nothing for a path falls back to the normal replies.
    expect((await get('/api/v3/ping')).status).toBe(200);

    replay.setScenario('coingecko', null);
    expect((await get('/api/v3/simple/price?ids=ethereum&vs_currencies=usd')).status).toBe(200);
  });

  it('leaves an idle keep-alive connection for the client to close: a request sent on it after 5.5 s is answered', async () => {
    // Node's servers close idle connections after 5 s; a client whose event loop stalled past that (a loaded machine)
    // then sends on a connection the server is closing, and fetch fails with ECONNRESET ("coingecko is unavailable").
    const { hostname, port } = new URL(replay.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    let closedByServer = false;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('end', () => (closedByServer = true));
    const ask = async () => {
      const before = received.length;
      socket.write('GET /coingecko/api/v3/ping HTTP/1.1\r\nHost: replay\r\n\r\n');
      while (!received.slice(before).includes('gecko_says') && !closedByServer)
        await new Promise((r) => setTimeout(r, 20));
      return received.slice(before);
    };
    try {
      expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
      await new Promise((r) => setTimeout(r, 5500));
      expect(closedByServer).toBe(false);
      expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
    }
  });

  it('delays slow replies past a client timeout', async () => {
    replay.setScenario('coingecko', 'slow');
    await expect(
      get('/api/v3/simple/price?ids=ethereum&vs_currencies=usd', { signal: AbortSignal.timeout(100) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('switches scenarios over HTTP for another process, rejecting unknown ones', async () => {
    const post = (body: unknown) =>
      fetch(`${replay.url}/__replay/scenario`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    expect((await post({ source: 'coingecko', scenario: 'down' })).status).toBe(200);
    expect((await get('/api/v3/ping')).status).toBe(503);
    expect((await post({ source: 'coingecko', scenario: null })).status).toBe(200);
    expect((await get('/api/v3/ping')).status).toBe(200);

    expect((await post({ source: 'coingecko', scenario: 'dwon' })).status).toBe(400);
    expect((await post({ nope: true })).status).toBe(400);
    expect(() => replay.setScenario('coingecko', 'dwon')).toThrow(UnknownReplayScenarioError);
  });

  it('counts requests per source and in total, without control requests', async () => {
    await get('/api/v3/ping');
    await get('/api/v3/ping');
    await fetch(`${replay.url}/other/x`);
    await fetch(`${replay.url}/__replay/counts`);
    expect(replay.requestCount('coingecko')).toBe(2);
    expect(replay.requestCount('other')).toBe(1);
    expect(replay.requestCount()).toBe(3);
    replay.resetCounts();
    expect(replay.requestCount()).toBe(0);
  });
});

describe('replay fixtures', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'replay-fixtures-'));
    mkdirSync(join(dir, 'broken'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to start on a file that is not JSON', async () => {
    writeFileSync(join(dir, 'broken', 'a.json'), '[{');
    await expect(startReplayServer({ recordingsDir: dir })).rejects.toThrow(InvalidReplayFixtureError);
  });

  it('refuses to start on an entry that does not fit the schema, naming the file and field', async () => {
    writeFileSync(
      join(dir, 'broken', 'b.json'),
      JSON.stringify([{ request: { method: 'GET', path: 'no-slash' }, response: { status: 200 } }]),
    );
    await expect(startReplayServer({ recordingsDir: dir })).rejects.toThrow(/b\.json.*request\.path/);
  });
});
