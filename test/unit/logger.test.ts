import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { secretValues } from '../../src/config/config.js';
import { createLogger } from '../../src/logging/logger.js';

/** A logger whose lines are collected instead of written to stdout. */
function captured(secrets: string[]) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('info', secrets, sink), lines };
}

describe('never log a secret', () => {
  const env = {
    ALCHEMY_API_KEY: 'alch-SECRET-123456',
    ETH_RPC_URL: 'https://rpc.example/v2/rpc-KEY-abcdef',
    PORT: '3000',
  };

  it('takes the values of the secret variables only', () => {
    expect(secretValues(env).sort()).toEqual(['alch-SECRET-123456', 'https://rpc.example/v2/rpc-KEY-abcdef']);
  });

  it('scrubs a configured secret from messages and from error texts', () => {
    const { logger, lines } = captured(secretValues(env));
    logger.error(
      { err: new Error('GET https://eth-mainnet.g.alchemy.com/nft/v3/alch-SECRET-123456/x failed') },
      'upstream',
    );
    logger.warn('could not reach https://rpc.example/v2/rpc-KEY-abcdef');
    const text = lines.join('');
    expect(text).not.toContain('alch-SECRET-123456');
    expect(text).not.toContain('rpc-KEY-abcdef');
    expect(text).toContain('[redacted]');
  });

  it('redacts credential headers of a logged request', () => {
    const { logger, lines } = captured([]);
    logger.info({ req: { headers: { authorization: 'Bearer eyJ.secret', 'x-api-key': 'sk_live_abc' } } }, 'request');
    const text = lines.join('');
    expect(text).toContain('"x-api-key":"[redacted]"');
    expect(text).not.toContain('eyJ.secret');
    expect(text).not.toContain('sk_live_abc');
  });
});
