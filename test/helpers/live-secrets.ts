import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/**
 * What a live configuration must name itself (docs/operators.md#going-live): a receiver whose key only this run holds,
 * a CCIP signer key and a session secret of its own. Tests that make a part live (a chain, the facilitator) add these.
 * @example await startTestServer({ X402_FACILITATOR_URL: url, ...LIVE_SECRETS })
 */
export const LIVE_SECRETS = {
  X402_RECEIVER: privateKeyToAccount(generatePrivateKey()).address,
  CCIP_SIGNER_KEY: generatePrivateKey(),
  JWT_SECRET: randomBytes(24).toString('hex'),
} as const;
