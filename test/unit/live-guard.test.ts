import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { liveRefusals } from '../../src/config/live-guard.js';
import { PART_NAMES } from '../../src/config/part-modes.js';
import {
  ANVIL_DEV_MNEMONIC,
  DEMO_X402_RECEIVER,
  PUBLIC_DEV_ACCOUNT_COUNT,
  publicDevKeys,
} from '../../src/config/public-dev-keys.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';

const refused = (env: Record<string, string>) => liveRefusals(loadConfig(env)).map((line) => line.split(':')[0]);
const modes = (env: Record<string, string>) => Object.fromEntries(loadConfig(env).parts.map((p) => [p.part, p.mode]));

describe('the public development keys are derived from the public mnemonic, not written down', () => {
  it("are anvil's (and Hardhat's) accounts: the same addresses viem's mnemonicToAccount derives", () => {
    const keys = publicDevKeys();
    expect(keys).toHaveLength(PUBLIC_DEV_ACCOUNT_COUNT);
    for (const index of [0, 9, 19]) {
      expect(keys[index]!.address).toBe(mnemonicToAccount(ANVIL_DEV_MNEMONIC, { addressIndex: index }).address);
    }
  });

  it('the demo receiver is none of them: an address made from a hash, whose key nobody holds', () => {
    expect(publicDevKeys().map((k) => k.address)).not.toContain(DEMO_X402_RECEIVER);
    expect(loadConfig({}).x402.receiver).toBe(DEMO_X402_RECEIVER);
  });
});

describe('each part is demo or live, decided once from the configuration', () => {
  it('the embedded default: every part demo, nothing live, nothing refused', () => {
    const config = loadConfig({});
    expect(config.parts.map((p) => p.part)).toEqual([...PART_NAMES]);
    expect(config.parts.every((p) => p.mode === 'demo')).toBe(true);
    expect(config.liveBecause).toEqual([]);
    expect(liveRefusals(config)).toEqual([]);
  });

  it('each variable switches its own part to live', () => {
    expect(modes({ ETH_RPC_URL: 'https://eth.example' })).toMatchObject({
      ethereum: 'live',
      base: 'demo',
      // With a live Ethereum and no facilitator named, the public one.
      facilitator: 'live',
    });
    expect(modes({ BASE_RPC_URL: 'https://base.example' })).toMatchObject({ base: 'live', facilitator: 'demo' });
    expect(modes(LIVE_SECRETS)).toMatchObject({ receiver: 'live', 'ccip-signer': 'live', 'jwt-secret': 'live' });
    expect(modes({ REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({ store: 'live' });
  });

  it('a chain, the facilitator or NODE_ENV=production makes the configuration live; a key or an upstream alone does not', () => {
    expect(loadConfig({ ARBITRUM_RPC_URL: 'https://arb.example' }).liveBecause).toEqual(['ARBITRUM_RPC_URL']);
    expect(loadConfig({ X402_FACILITATOR_URL: 'https://f.example' }).liveBecause).toEqual(['X402_FACILITATOR_URL']);
    expect(loadConfig({ NODE_ENV: 'production' }).liveBecause).toEqual(['NODE_ENV=production']);
    expect(
      loadConfig({ NODE_ENV: 'test', COINGECKO_API_URL: 'https://c.example', ...LIVE_SECRETS }).liveBecause,
    ).toEqual([]);
  });
});

describe('a live part never leans on a demo value', () => {
  it('a live Ethereum without receiver, signer and secret: one line for each, naming the variable and why', () => {
    const lines = liveRefusals(loadConfig({ ETH_RPC_URL: 'https://eth.example' }));
    expect(lines.map((l) => l.split(':')[0])).toEqual(['X402_RECEIVER', 'CCIP_SIGNER_KEY', 'JWT_SECRET']);
    expect(lines[0]).toBe(
      'X402_RECEIVER: unset while ETH_RPC_URL is live: payments would go to the demo receiver; set the address you are paid at',
    );
    expect(refused({ ETH_RPC_URL: 'https://eth.example', ...LIVE_SECRETS })).toEqual([]);
  });

  it('a live Base chain with the embedded facilitator is refused unless X402_STAGING_EMBEDDED_FACILITATOR=true', () => {
    const base = { BASE_RPC_URL: 'https://base.example', ...LIVE_SECRETS };
    expect(refused(base)).toEqual(['X402_FACILITATOR_URL']);
    expect(refused({ ...base, X402_STAGING_EMBEDDED_FACILITATOR: 'true' })).toEqual([]);
    expect(refused({ ...base, X402_FACILITATOR_URL: 'https://f.example' })).toEqual([]);
  });

  it('NODE_ENV=production refuses the demo receiver, generated secrets and the embedded facilitator', () => {
    expect(refused({ NODE_ENV: 'production' })).toEqual([
      'X402_RECEIVER',
      'X402_FACILITATOR_URL',
      'CCIP_SIGNER_KEY',
      'JWT_SECRET',
    ]);
  });

  it("anvil's public accounts are refused as receiver and signer in every configuration, the embedded default too", () => {
    const [, ninth] = [0, 9].map((i) => publicDevKeys()[i]!);
    expect(liveRefusals(loadConfig({ X402_RECEIVER: ninth!.address }))).toEqual([
      `X402_RECEIVER: ${ninth!.address} is anvil's public development account #9, whose key anyone has: set an address you hold the key of`,
    ]);
    // Any case, and Hardhat's accounts past anvil's ten.
    expect(refused({ X402_RECEIVER: publicDevKeys()[15]!.address.toLowerCase() })).toEqual(['X402_RECEIVER']);
    expect(refused({ CCIP_SIGNER_KEY: publicDevKeys()[0]!.privateKey })).toEqual(['CCIP_SIGNER_KEY']);
    expect(
      refused({ ...LIVE_SECRETS, ETH_RPC_URL: 'https://eth.example', CCIP_SIGNER_KEY: publicDevKeys()[3]!.privateKey }),
    ).toEqual(['CCIP_SIGNER_KEY']);
  });
});

describe('HOST: the embedded default listens on loopback, a live configuration on every interface', () => {
  it('unset HOST is 127.0.0.1 on the embedded default, 0.0.0.0 once a part is live, and HOST wins either way', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ ETH_RPC_URL: 'https://eth.example' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1', ETH_RPC_URL: 'https://eth.example' }).host).toBe('127.0.0.1');
  });
});
