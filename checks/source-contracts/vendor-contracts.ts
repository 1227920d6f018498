import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../src/config/project-root.js';
import { ALCHEMY_AMENDMENTS, type ContractAmendment, SNAPCHAIN_AMENDMENTS } from './contract-amendments.js';
import {
  COINBASE_DOCUMENTED,
  DEBANK_DOCUMENTED,
  ENS_SUBGRAPH_DOCUMENTED,
  ETHERSCAN_DOCUMENTED,
  GROWTHEPIE_DOCUMENTED,
  JSON_RPC_DOCUMENTED,
} from './documented-contracts.js';
import type { OpenApiDocument } from './openapi-schema.js';
import { type RequestExpectations, VendorContract } from './vendor-contract.js';

/** Where one upstream's contract comes from and how its URLs map onto the contract's paths. */
export interface VendorContractSpec {
  /** e.g. `coingecko-pro`; one source may speak several contracts (CoinGecko's demo and pro hosts). */
  vendor: string;
  /** Our source: its name in /api/sources/health and its folder of recorded replies. */
  source: string;
  /** A published document copied into checks/vendor-openapi/, or a shape pinned from the vendor's docs. */
  contract: { file: string; amendments?: readonly ContractAmendment[] } | { documented: OpenApiDocument };
  /**
   * The base URL the client is given for the live API (its origin must be one the contract's servers name); the
   * replay's folder records the paths that follow it.
   */
  liveBase: string;
  /** The URL path between that base URL and the contract's paths; `{key}` stands for the key. */
  pathPrefix: string;
  /** The base URL is the one endpoint (GraphQL), the contract's `/`. */
  singleEndpoint?: true;
  /** The path parameter that carries the key, for vendors whose contract puts it in the path. */
  credentialPathParam?: string;
  /** Error replies the contract leaves undocumented, in the shape the vendor's documentation gives. */
  errorReplies?: { schema: Record<string, unknown>; docs: string };
}

const neynarErrorReplies = {
  schema: { $ref: '#/components/schemas/ErrorRes' },
  docs: 'neynar-v2.yaml components/schemas/ErrorRes (the contract’s own error body, used for every status)',
};

const messageBody = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
};

const defillamaErrorReplies = { schema: messageBody, docs: 'https://api-docs.defillama.com (rate limits)' };

/**
 * A vendor whose contract is pinned from its docs (documented-contracts.ts): it is its own source, its paths follow
 * the base URL directly, and the base URL is the document's server unless `liveBase` names one.
 */
function documentedVendor(
  documented: OpenApiDocument,
  spec: Pick<VendorContractSpec, 'vendor'> & Partial<Omit<VendorContractSpec, 'contract'>>,
): VendorContractSpec {
  const [server] = (documented.servers ?? []) as { url: string }[];
  const liveBase = spec.liveBase ?? server?.url;
  if (liveBase === undefined) throw new Error(`the documented contract of ${spec.vendor} names no server`);
  return { source: spec.vendor, pathPrefix: '', ...spec, contract: { documented }, liveBase };
}

/** Every upstream HTTP API with its contract (the RPC chains speak JSON-RPC and are not listed). */
export const VENDOR_CONTRACTS: readonly VendorContractSpec[] = [
  {
    vendor: 'neynar',
    source: 'neynar',
    contract: { file: 'neynar-v2.yaml' },
    liveBase: 'https://api.neynar.com',
    pathPrefix: '',
    errorReplies: neynarErrorReplies,
  },
  {
    vendor: 'farcaster-hub',
    source: 'farcaster-hub',
    contract: { file: 'farcaster-hub.yaml', amendments: SNAPCHAIN_AMENDMENTS },
    liveBase: 'https://snapchain-api.neynar.com',
    pathPrefix: '',
  },
  ...(['demo', 'pro'] as const).map(
    (plan): VendorContractSpec => ({
      vendor: `coingecko-${plan}`,
      source: 'coingecko',
      contract: { file: `coingecko-${plan}.yaml` },
      liveBase: plan === 'demo' ? 'https://api.coingecko.com' : 'https://pro-api.coingecko.com',
      pathPrefix: '/api/v3',
      errorReplies: {
        schema: {
          anyOf: [
            {
              type: 'object',
              required: ['status'],
              properties: {
                status: {
                  type: 'object',
                  required: ['error_code', 'error_message'],
                  properties: { error_code: { type: 'integer' }, error_message: { type: 'string' } },
                },
              },
            },
            { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
          ],
        },
        docs: 'https://docs.coingecko.com/reference/common-errors-rate-limit',
      },
    }),
  ),
  ...(
    [
      ['defillama', 'https://api.llama.fi'],
      ['defillama-coins', 'https://coins.llama.fi'],
      ['defillama-yields', 'https://yields.llama.fi'],
    ] as const
  ).map(
    ([source, liveBase]): VendorContractSpec => ({
      vendor: source,
      source,
      contract: { file: 'defillama-free.yaml' },
      liveBase,
      pathPrefix: '',
      errorReplies: defillamaErrorReplies,
    }),
  ),
  {
    vendor: 'defillama-pro',
    source: 'defillama-pro',
    contract: { file: 'defillama-pro.yaml' },
    liveBase: 'https://pro-api.llama.fi',
    // llms-pro.txt: "the key goes in the URL path" (pro-api.llama.fi/<KEY>/api/…).
    pathPrefix: '/{key}',
    errorReplies: defillamaErrorReplies,
  },
  {
    vendor: 'sourcify',
    source: 'sourcify',
    contract: { file: 'sourcify-apiv2.yaml' },
    liveBase: 'https://sourcify.dev/server',
    pathPrefix: '',
  },
  {
    vendor: 'alchemy-nft',
    source: 'alchemy-nft',
    contract: { file: 'alchemy-nft.yaml', amendments: ALCHEMY_AMENDMENTS },
    liveBase: 'https://eth-mainnet.g.alchemy.com',
    pathPrefix: '/nft',
    credentialPathParam: 'apiKey',
    errorReplies: {
      schema: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
      },
      docs: 'https://docs.alchemy.com/reference/error-reference',
    },
  },
  documentedVendor(COINBASE_DOCUMENTED, { vendor: 'coinbase' }),
  documentedVendor(ETHERSCAN_DOCUMENTED, { vendor: 'etherscan' }),
  documentedVendor(DEBANK_DOCUMENTED, {
    vendor: 'debank',
    errorReplies: { schema: messageBody, docs: 'https://docs.cloud.debank.com/en/readme/api-pro-reference' },
  }),
  documentedVendor(GROWTHEPIE_DOCUMENTED, {
    vendor: 'growthepie',
    errorReplies: { schema: messageBody, docs: 'https://docs.growthepie.com' },
  }),
  documentedVendor(ENS_SUBGRAPH_DOCUMENTED, {
    vendor: 'ens-subgraph',
    liveBase: 'https://gateway.thegraph.com/subgraphs/name/ensdomains/ens',
    singleEndpoint: true,
    errorReplies: {
      schema: {
        anyOf: [
          messageBody,
          { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: messageBody } } },
        ],
      },
      docs: 'https://thegraph.com/docs/en/subgraphs/querying/graphql-api/',
    },
  }),
  documentedVendor(JSON_RPC_DOCUMENTED, {
    vendor: 'json-rpc',
    // Any node: the chain's RPC URL is the endpoint.
    liveBase: 'https://ethereum-rpc.publicnode.com',
    singleEndpoint: true,
    errorReplies: {
      schema: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { type: 'object', required: ['code', 'message'], properties: { message: { type: 'string' } } },
        },
      },
      docs: 'https://ethereum.org/en/developers/docs/apis/json-rpc/ (error responses)',
    },
  }),
];

/**
 * What a request to this vendor must carry beyond the contract itself: where its paths start and where the key goes.
 * @example requestExpectations(vendorContractSpec('defillama-pro'), 'k', 'https://pro-api.llama.fi').basePath // '/k'
 */
export function requestExpectations(
  spec: VendorContractSpec,
  credential: string | undefined,
  baseUrl: string = spec.liveBase,
): RequestExpectations {
  const base = new URL(baseUrl);
  const prefix = spec.pathPrefix.replace('{key}', credential === undefined ? '' : encodeURIComponent(credential));
  return {
    basePath: `${base.pathname.replace(/\/+$/, '')}${prefix}`,
    credential: spec.pathPrefix.includes('{key}') ? undefined : credential,
    credentialPathParam: spec.credentialPathParam,
    origin: new URL(spec.liveBase).origin,
  };
}

/** Where the copied vendor documents live: checks/vendor-openapi of this checkout (src or dist alike). */
export function vendorOpenApiDir(): string {
  return join(projectRoot(), 'checks', 'vendor-openapi');
}

/**
 * The spec of one vendor.
 * @example vendorContractSpec('coingecko-pro').origin // 'https://pro-api.coingecko.com'
 */
export function vendorContractSpec(vendor: string): VendorContractSpec {
  const spec = VENDOR_CONTRACTS.find((v) => v.vendor === vendor);
  if (!spec) throw new Error(`no contract for vendor ${vendor}`);
  return spec;
}

/**
 * The vendor's document as published (or pinned), before amendments.
 * @example readVendorDocument(vendorContractSpec('neynar')).openapi // '3.0.4'
 */
export function readVendorDocument(spec: VendorContractSpec): OpenApiDocument {
  if ('documented' in spec.contract) return spec.contract.documented;
  return parse(readFileSync(join(vendorOpenApiDir(), spec.contract.file), 'utf8')) as OpenApiDocument;
}

const loaded = new Map<string, VendorContract>();

/**
 * The vendor's contract, read once (with its amendments) and kept.
 * @example loadVendorContract('neynar').findOperation('GET', '/v2/farcaster/user/bulk/')
 */
export function loadVendorContract(vendor: string): VendorContract {
  let contract = loaded.get(vendor);
  if (contract) return contract;
  const spec = vendorContractSpec(vendor);
  const amendments = 'file' in spec.contract ? (spec.contract.amendments ?? []) : [];
  contract = new VendorContract(vendor, readVendorDocument(spec), amendments);
  loaded.set(vendor, contract);
  return contract;
}
