import type { AppConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { DEMO_X402_RECEIVER, publicDevAccountIndex, publicDevKeyIndex } from './public-dev-keys.js';

/**
 * Why this configuration may not serve: one `NAME: why` line per variable, empty when it may. In every configuration
 * the receiver and the CCIP signer must not be one of anvil's public development accounts; once any part is live
 * (`config.liveBecause`), no receiver, signer key or secret may come from a demo value or be generated, and the
 * embedded facilitator may settle only on a server that says it is staging.
 * @example liveRefusals(loadConfig({ ETH_RPC_URL: 'https://…' }))[0] // 'X402_RECEIVER: unset while ETH_RPC_URL is live: …'
 */
export function liveRefusals(config: AppConfig): string[] {
  const refusals: string[] = [];
  const { receiver } = config.x402;
  // The demo receiver is a hash, not a key's address (test/unit/live-guard.test.ts): no derivation needed for it.
  const receiverIndex = receiver === DEMO_X402_RECEIVER ? undefined : publicDevAccountIndex(receiver);
  if (receiverIndex !== undefined) {
    refusals.push(
      `X402_RECEIVER: ${receiver} is anvil's public development account #${receiverIndex}, whose key anyone has: set an address you hold the key of`,
    );
  }
  const signerIndex = config.ccip.signerKey === undefined ? undefined : publicDevKeyIndex(config.ccip.signerKey);
  if (signerIndex !== undefined) {
    refusals.push(
      `CCIP_SIGNER_KEY: is anvil's public development key #${signerIndex}: anyone could sign answers as this gateway; set a key of your own`,
    );
  }
  if (config.liveBecause.length === 0) return refusals;
  const because = `while ${config.liveBecause.join(', ')} ${config.liveBecause.length === 1 ? 'is' : 'are'} live`;
  if (receiver === DEMO_X402_RECEIVER) {
    refusals.push(
      `X402_RECEIVER: unset ${because}: payments would go to the demo receiver; set the address you are paid at`,
    );
  }
  if (config.x402.facilitatorUrl === undefined && !config.x402.stagingEmbeddedFacilitator) {
    refusals.push(
      `X402_FACILITATOR_URL: unset ${because}: the embedded facilitator would settle on its private chain, where anvil's public accounts hold test USDC (every payment free); set your facilitator's URL, or X402_STAGING_EMBEDDED_FACILITATOR=true on a staging server`,
    );
  }
  if (config.ccip.signerKey === undefined) {
    refusals.push(
      `CCIP_SIGNER_KEY: unset ${because}: the gateway would sign with a key generated into the store; set a key of your own`,
    );
  }
  if (config.auth.jwtSecret === undefined) {
    refusals.push(
      `JWT_SECRET: unset ${because}: sessions would be signed with a secret generated into the store; set 32 or more random characters`,
    );
  }
  return refusals;
}

/**
 * Throws a ConfigError listing liveRefusals, one line each, before anything starts or listens.
 * @example assertLiveReady(config) // at the top of startServices, and in npm start before the port check
 */
export function assertLiveReady(config: AppConfig): void {
  const refusals = liveRefusals(config);
  if (refusals.length > 0) throw new ConfigError(refusals.join('\n'));
}
