import { ACCESS_AREA } from './access-settings.js';
import { CCIP_AREA } from './ccip-settings.js';
import { CHAIN_AREA } from './chain-settings.js';
import type { ConfigArea, ConfigVariable, SettingsOf } from './config-variable.js';
import { DEPLOYMENT_AREA } from './deployment-settings.js';
import { GRAPHQL_AREA } from './graphql-settings.js';
import { HTTP_AREA } from './http-settings.js';
import { LIVE_AREA } from './live-settings.js';
import { OBSERVABILITY_AREA } from './observability-settings.js';
import { STORE_AREA } from './store-settings.js';
import { UPSTREAM_AREA } from './upstream-settings.js';
import { WEBHOOK_AREA } from './webhook-settings.js';
import { X402_AREA } from './x402-settings.js';

/**
 * Every area of the configuration, in the order the docs and `.env.example` list them. A variable is declared once,
 * in its area's `*-settings.ts`; this list is how loadConfig, the docs table, `.env.example` and the logger's secret
 * scrubbing find it.
 */
export const CONFIG_AREAS = [
  DEPLOYMENT_AREA,
  HTTP_AREA,
  OBSERVABILITY_AREA,
  STORE_AREA,
  CHAIN_AREA,
  X402_AREA,
  CCIP_AREA,
  ACCESS_AREA,
  UPSTREAM_AREA,
  GRAPHQL_AREA,
  WEBHOOK_AREA,
  LIVE_AREA,
] as const satisfies readonly ConfigArea[];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every variable by name, from every area (a name is declared in one area only: test/unit/config-table.test.ts). */
export const ALL_VARIABLES = Object.assign({}, ...CONFIG_AREAS.map((area) => area.variables)) as UnionToIntersection<
  (typeof CONFIG_AREAS)[number]['variables']
>;

/** The validated value of every variable. */
export type Settings = SettingsOf<typeof ALL_VARIABLES>;

/** Every environment variable the service reads (docs/configuration.md and .env.example are generated from them). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ALL_VARIABLES);

/** Variables whose values are secrets (keys, tokens, URLs that may embed keys): never written to a log. */
export const SECRET_VARIABLES: readonly string[] = Object.entries(
  ALL_VARIABLES as Record<string, ConfigVariable<unknown>>,
)
  .filter(([, variable]) => variable.secret)
  .map(([name]) => name);
