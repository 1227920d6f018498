import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Counted routes answered locally: Light (price), Medium (smart price), Heavy (batch price). */
const LIGHT = '/api/price/ETH';
const MEDIUM = '/api/price/smart/ETH';
const HEAVY = '/api/price/batch?symbols=ETH';

type Headers = Record<string, number | string>;

/** Per-minute windows are aligned to the clock: a test that counts calls in one minute starts early in one. */
async function startOfAMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

function rateLimitHeaders(res: Response): Headers {
  const n = (name: string) => Number(res.headers.get(`x-ratelimit-${name}`));
  return {
    tier: res.headers.get('x-ratelimit-tier') ?? '',
    limit: n('limit'),
    remaining: n('remaining'),
    tierLimit: n('tier-limit'),
    tierRemaining: n('tier-remaining'),
    globalUsed: n('global-used'),
    globalLimit: n('global-limit'),
  };
}

describe('limits exactly as docs/api-contract.md#limits states them (anonymous: 100 a day, 30 a minute per IP)', () => {
  let server: TestServer;
  let nextIp = 1;
  // Each test is its own client IP (X-Forwarded-For from a trusted proxy: the test runs on loopback), so each starts
  // with fresh quotas.
  const newClient = async () => {
    await startOfAMinute();
    const ip = { 'x-forwarded-for': `198.51.100.${nextIp++}` };
    return (path: string) => server.get(path, ip);
  };
  beforeAll(async () => {
    // docs/api-contract.md#limits-by-access-mode: nothing raised. The test process is the proxy: loopback is trusted,
    // as an nginx beside it would be. Over a socket: which address is trusted is the connection's peer.
    server = await startTestServer({ TRUST_PROXY: 'loopback' }, { transport: 'socket' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an anonymous IP gets 30 calls a minute on a Light route, not more', async () => {
    const call = await newClient();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await call(LIGHT);
      statuses.push(last.status);
    }
    console.log('anonymous Light calls in one minute admitted:', statuses.filter((s) => s === 200).length);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(last!.status).toBe(429);
    expect(await last!.json()).toMatchObject({ code: 'RATE_LIMITED', tier: 'light', limit: 30 });
    expect(last!.headers.get('x-ratelimit-tier-remaining')).toBe('0');
  });

  it('the 30 a minute are a cap across all tiers', async () => {
    const call = await newClient();
    for (let i = 0; i < 20; i++) expect((await call(LIGHT)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await call(MEDIUM)).status).toBe(200);
    const over = await call(MEDIUM);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ code: 'RATE_LIMITED', limit: 30 });
  });

  it("a tier's own per-minute limit applies where it is lower: Heavy is the contract's 10 a minute", async () => {
    const call = await newClient();
    for (let i = 0; i < 10; i++) expect((await call(HEAVY)).status).toBe(200);
    const over = await call(HEAVY);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ code: 'RATE_LIMITED', tier: 'heavy', limit: 10 });
    // The cap across tiers still has room: a Light call goes through.
    expect((await call(LIGHT)).status).toBe(200);
  });

  it('the first call shows each limit with what is left of that same limit', async () => {
    const light = rateLimitHeaders(await (await newClient())(LIGHT));
    console.log('first anonymous Light call:', light);
    // Light's own daily limit (2 × 100) is above the cap of 100 across tiers: the cap is the limit that applies.
    expect(light).toEqual({
      tier: 'light',
      limit: 100,
      remaining: 99,
      tierLimit: 30,
      tierRemaining: 29,
      globalUsed: 1,
      globalLimit: 100,
    });
    const heavy = rateLimitHeaders(await (await newClient())(HEAVY));
    expect(heavy).toEqual({
      tier: 'heavy',
      limit: 25,
      remaining: 24,
      tierLimit: 10,
      tierRemaining: 9,
      globalUsed: 1,
      globalLimit: 100,
    });
  });

  it('on every response Remaining is its Limit less the calls counted against that limit', async () => {
    const call = await newClient();
    const used: Record<string, number> = { light: 0, medium: 0, heavy: 0 };
    const plan = [...Array(12).fill(MEDIUM), ...Array(8).fill(HEAVY), ...Array(5).fill(LIGHT)];
    for (const path of plan) {
      const res = await call(path);
      expect(res.status).toBe(200);
      const h = rateLimitHeaders(res);
      used[h.tier as string]! += 1;
      const countedDaily = h.limit === h.globalLimit ? h.globalUsed : used[h.tier as string]!;
      expect(h.remaining, `${path} ${JSON.stringify(h)}`).toBe((h.limit as number) - (countedDaily as number));
      const countedMinute = h.tierLimit === 30 ? h.globalUsed : used[h.tier as string]!;
      expect(h.tierRemaining, `${path} ${JSON.stringify(h)}`).toBe((h.tierLimit as number) - (countedMinute as number));
    }
  });

  it("behind a proxy that appends the client's address (nginx's default), a rotating X-Forwarded-For buys no quota", async () => {
    await startOfAMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      // What the client wrote, then what the proxy appended: the address it saw.
      const res = await server.get(LIGHT, { 'x-forwarded-for': `10.${i}.0.1, 198.51.100.250` });
      statuses.push(res.status);
    }
    const admitted = statuses.filter((s) => s === 200).length;
    console.log(`rotating X-Forwarded-For behind an appending proxy: ${admitted}/40 admitted`);
    expect(admitted).toBe(30);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
  });

  it('IPv6 callers are counted per /64, every spelling of an address alike; IPv4-mapped IPv6 is the IPv4 caller', async () => {
    await startOfAMinute();
    const used = async (ip: string) =>
      ((await (await server.get('/api/usage', { 'x-forwarded-for': ip })).json()) as { used: number }).used;
    expect((await server.get(LIGHT, { 'x-forwarded-for': '2001:db8:77::1' })).status).toBe(200);
    for (const spelling of [
      '2001:db8:77::1',
      '2001:0DB8:0077:0:0:0:0:0001',
      '2001:db8:77:0::1',
      '2001:db8:77::ffff:1',
    ]) {
      expect(await used(spelling), spelling).toBe(1);
    }
    expect(await used('2001:db8:78::1')).toBe(0);
    expect((await server.get(LIGHT, { 'x-forwarded-for': '::ffff:198.51.100.251' })).status).toBe(200);
    expect(await used('198.51.100.251')).toBe(1);
  });

  it('an X-Forwarded-For entry that is not an IP address is refused, never counted as a caller of its own', async () => {
    for (const xff of ['not-an-ip', '198.51.100.1, 203.0.113.7:8080', '127.1']) {
      const res = await server.get(LIGHT, { 'x-forwarded-for': xff });
      expect(res.status, xff).toBe(400);
      expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_REQUEST' });
    }
  });
});
