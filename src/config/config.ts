import { type AccessConfig, accessConfig } from './access-settings.js';
import { type CcipConfig, ccipConfig } from './ccip-settings.js';
import { type ChainConfig, chainConfig } from './chain-settings.js';
import { ALL_VARIABLES, SECRET_VARIABLES, type Settings } from './config-areas.js';
import { invalidConfiguration } from './config-error.js';
import { readSettings } from './config-variable.js';
import { type DeploymentConfig, deploymentConfig } from './deployment-settings.js';
import { type GraphqlConfig, graphqlConfig } from './graphql-settings.js';
import { type HttpConfig, httpConfig } from './http-settings.js';
import { type LiveConfig, liveConfig } from './live-settings.js';
import { type ObservabilityConfig, observabilityConfig } from './observability-settings.js';
import { liveBecause, type PartState, partModes } from './part-modes.js';
import { type StoreConfig, storeConfig } from './store-settings.js';
import { type UpstreamConfig, upstreamConfig } from './upstream-settings.js';
import { type WebhookConfig, webhookConfig } from './webhook-settings.js';
import { type X402Config, x402Config } from './x402-settings.js';

// Where each area's names and constants have always been imported from.
export { DEFAULT_CCIP_PARENT_NAMES } from './ccip-settings.js';
export type { ChainEndpoint } from './chain-settings.js';
export { CONFIG_VARIABLES } from './config-areas.js';
export { ConfigError } from './config-error.js';
export { DEBANK_DEFAULT_URL, ETHERSCAN_DEFAULT_URL, NEYNAR_DEFAULT_URL } from './upstream-settings.js';
export { PUBLIC_X402_FACILITATOR, USDC_ON_BASE } from './x402-settings.js';

/** The validated configuration every part of the service is given: each area's part, and which parts are live. */
export interface AppConfig
  extends DeploymentConfig,
    HttpConfig,
    ObservabilityConfig,
    StoreConfig,
    ChainConfig,
    X402Config,
    CcipConfig,
    AccessConfig,
    UpstreamConfig,
    GraphqlConfig,
    WebhookConfig,
    LiveConfig {
  /** Each part demo or live, decided once here (src/config/part-modes.ts). */
  parts: PartState[];
  /** The variables that make this a live configuration (a live chain or facilitator, NODE_ENV=production); empty: the embedded default. */
  liveBecause: string[];
}

/**
 * The secret values set in this environment (at least 8 characters, so no common word is scrubbed), for the logger
 * to scrub from every line.
 * @example createLogger(config.logLevel, secretValues(process.env))
 */
export function secretValues(env: Record<string, string | undefined>): string[] {
  return SECRET_VARIABLES.map((name) => env[name]?.trim() ?? '').filter((value) => value.length >= 8);
}

/**
 * Reads and validates the environment once; the rest of the code receives the result. Whether it may serve as it is
 * (no live part leaning on a demo value) is a second check at start: src/config/live-guard.ts.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  // An empty value (`FOO=` in an env file) means unset, as in .env.example.
  const given = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ''),
  );
  const { settings, issues } = readSettings(ALL_VARIABLES, given);
  if (issues.length > 0) throw invalidConfiguration(issues);
  const e: Settings = settings;
  const chains = chainConfig(e);
  const beforeHttp = {
    ...deploymentConfig(e),
    ...observabilityConfig(e),
    ...storeConfig(e),
    ...chains,
    ...x402Config(e, e.ETH_RPC_URL),
    ...ccipConfig(e),
    ...accessConfig(e),
    ...upstreamConfig(e),
    ...graphqlConfig(e),
    ...webhookConfig(e, e.ETH_RPC_URL === undefined),
    ...liveConfig(e),
  };
  // HOST's default depends on whether anything is live; nothing else in the decision depends on HTTP.
  const live = liveBecause({ ...beforeHttp, ...httpConfig(e, false) });
  const config = { ...beforeHttp, ...httpConfig(e, live.length > 0) };
  return { ...config, parts: partModes(config), liveBecause: live };
}
