import { normalize } from 'viem/ens';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CCIP_PARENT_NAMES, loadConfig, USDC_ON_BASE } from '../../src/config/config.js';

describe('configuration is read and validated once', () => {
  it('serves with no configuration at all: port 3000, ./data, the documented limits, USDC on Base', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.redis).toBeUndefined();
    expect(c.redisVolatileOk).toBe(false);
    expect(c.storeTimeoutMs).toBe(500);
    expect(c.anonymousLimits).toEqual({ daily: 100, perMinute: 30 });
    expect(c.x402).toMatchObject({ asset: USDC_ON_BASE, network: 'base', chainId: 8453 });
    expect(c.graphql).toEqual({ maxDepth: 6, maxAliases: 15, maxTokens: 1000, maxCost: 1000 });
    expect(Object.values(c.chains).every((chain) => chain.rpcUrl === undefined)).toBe(true);
  });

  it('CCIP_PARENT_NAMES: unset serves offchain.eth; set, each name must be in ENSIP-15 normal form with two labels or more', () => {
    expect(loadConfig({}).ccip.parentNames).toEqual(['offchain.eth']);
    // The default skips normalisation at start, so it must already be normal.
    for (const name of DEFAULT_CCIP_PARENT_NAMES) expect(normalize(name)).toBe(name);
    expect(loadConfig({ CCIP_PARENT_NAMES: 'sub.eth, other.eth,sub.eth' }).ccip.parentNames).toEqual([
      'sub.eth',
      'other.eth',
    ]);
    expect(() => loadConfig({ CCIP_PARENT_NAMES: 'Sub.eth' })).toThrow(/CCIP_PARENT_NAMES/);
    expect(() => loadConfig({ CCIP_PARENT_NAMES: 'eth' })).toThrow(/CCIP_PARENT_NAMES/);
    expect(() => loadConfig({ CCIP_PARENT_NAMES: ' , ' })).toThrow(/CCIP_PARENT_NAMES/);
  });

  it('treats an empty value as unset, as an env file written from .env.example has them', () => {
    const c = loadConfig({ REDIS_URL: '', ETH_RPC_URL: ' ', X402_RECEIVER: '' });
    expect(c.redis).toBeUndefined();
    expect(c.chains.ethereum.rpcUrl).toBeUndefined();
  });

  it('REDIS_CLUSTER_NODES or a redis+cluster:// REDIS_URL opens a Redis Cluster from its seed nodes', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001' }).redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      tls: false,
    });
    expect(loadConfig({ REDIS_URL: 'rediss+cluster://app:p%40ss@cache-1.internal:6379,[::1]:6380' }).redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'cache-1.internal', port: 6379 },
        { host: '::1', port: 6380 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1' })).toThrow(
      /REDIS_CLUSTER_NODES: "10.0.0.1" is not a host:port/,
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_URL: 'redis://10.0.0.9:6379' })).toThrow(
      /REDIS_URL: with REDIS_CLUSTER_NODES it must be a redis\+cluster:\/\/ URL/,
    );
    expect(loadConfig({ REDIS_VOLATILE_OK: 'true' }).redisVolatileOk).toBe(true);
    expect(() => loadConfig({ REDIS_VOLATILE_OK: 'yes' })).toThrow(/REDIS_VOLATILE_OK/);
  });

  it('switches the store to Redis and a chain to a live RPC by env var', () => {
    const c = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', BASE_RPC_URL: 'https://base.example/rpc' });
    expect(c.redis).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' });
    expect(c.redisKeyPrefix).toBe('cia:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'staging:cia:' }).redisKeyPrefix).toBe('staging:cia:');
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX/);
    expect(c.chains.base).toMatchObject({ id: 8453, rpcUrl: 'https://base.example/rpc' });
  });

  it('connections: 4096 at once, 256 of them per client address, 3 s to send a first byte, 30 s idle, 10 s for the headers, 30 s for the request; headers never longer than the request', () => {
    expect(loadConfig({}).connections).toEqual({
      max: 4096,
      maxPerAddress: 256,
      firstByteTimeoutMs: 3000,
      keepAliveTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
    });
    expect(loadConfig({ MAX_CONNECTIONS: '100', KEEP_ALIVE_TIMEOUT_MS: '65000' }).connections).toMatchObject({
      max: 100,
      keepAliveTimeoutMs: 65_000,
    });
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/MAX_CONNECTIONS/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
    // The first byte is part of the headers: a shorter headers timeout bounds it.
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '500' }).connections.firstByteTimeoutMs).toBe(500);
  });

  it('refuses a bad value with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ X402_RECEIVER: '0x1234' })).toThrow(/X402_RECEIVER/);
    expect(() => loadConfig({ ETH_RPC_URL: 'not a url' })).toThrow(/ETH_RPC_URL/);
    expect(() => loadConfig({ STORE_TIMEOUT_MS: '0' })).toThrow(/STORE_TIMEOUT_MS/);
  });

  it('Etherscan API v2 always gets its key: from ETHERSCAN_API_KEY, or from an apikey in ETHERSCAN_API_URL, which then leaves the URL', () => {
    expect(loadConfig({ ETHERSCAN_API_KEY: 'k1' }).upstreams.etherscan).toEqual({
      url: 'https://api.etherscan.io',
      apiKey: 'k1',
    });
    expect(
      loadConfig({ ETHERSCAN_API_URL: 'https://api.etherscan.io/v2/api?apikey=k2', ETHERSCAN_API_KEY: '' }).upstreams
        .etherscan,
    ).toEqual({ url: 'https://api.etherscan.io/v2/api', apiKey: 'k2' });
    expect(
      loadConfig({ ETHERSCAN_API_URL: 'https://etherscan.proxy.example/', ETHERSCAN_API_KEY: 'k3' }).upstreams
        .etherscan,
    ).toEqual({ url: 'https://etherscan.proxy.example', apiKey: 'k3' });
  });

  it('refuses ETHERSCAN_API_URL without any key: v2 answers every keyless call "Missing/Invalid API Key"', () => {
    expect(() => loadConfig({ ETHERSCAN_API_URL: 'https://api.etherscan.io' })).toThrow(ConfigError);
    expect(() => loadConfig({ ETHERSCAN_API_URL: 'https://api.etherscan.io' })).toThrow(/ETHERSCAN_API_KEY/);
  });

  it('reads CORS_ORIGINS as * (the default) or a list of exact origins, and refuses anything else', () => {
    expect(loadConfig({}).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.com' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
