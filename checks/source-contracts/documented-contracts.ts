import { EVM_ADDRESS_PATTERN } from '../../src/config/evm-address-pattern.js';
import type { OpenApiDocument } from './openapi-schema.js';

// Vendors that publish no machine-readable contract: the shape their documentation pages give, pinned here as
// OpenAPI 3.1 (JSON Schema 2020-12), the fields our clients send and read. `x-doc-page` names the page.

const decimalString = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' };
const unsignedString = { type: 'string', pattern: '^\\d+$' };
/** An EVM address, any case; Etherscan sends the empty string where there is none. */
const address = { type: 'string', pattern: EVM_ADDRESS_PATTERN.source };
const addressOrEmpty = { anyOf: [address, { const: '' }] };

/** One documented reply: what the page says it is, and its JSON body's schema. */
interface DocumentedReply {
  description: string;
  schema: Record<string, unknown>;
}

/**
 * The OpenAPI 3.1 document of the one operation a vendor's page describes (every document below has one).
 * @example documented({ title: 'X', version: 'v1', docPage: 'https://x.dev', method: 'post', path: '/', responses: {} })
 */
function documented(p: {
  title: string;
  version: string;
  docPage: string;
  server?: string;
  /** Where the vendor takes its key: a query parameter or header of this name. */
  key?: { in: 'query' | 'header'; name: string };
  method: 'get' | 'post';
  path: string;
  parameters?: Record<string, unknown>[];
  /** By status code (`default` for any other). */
  responses: Record<string, DocumentedReply>;
}): OpenApiDocument {
  const responses = Object.fromEntries(
    Object.entries(p.responses).map(([status, { description, schema }]) => [
      status,
      { description, content: { 'application/json': { schema } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: `${p.title} (as documented)`, version: p.version },
    'x-doc-page': p.docPage,
    ...(p.server === undefined ? {} : { servers: [{ url: p.server }] }),
    ...(p.key === undefined
      ? {}
      : {
          security: [{ [p.key.name]: [] }],
          components: { securitySchemes: { [p.key.name]: { type: 'apiKey', in: p.key.in, name: p.key.name } } },
        }),
    paths: {
      [p.path]: { [p.method]: { ...(p.parameters === undefined ? {} : { parameters: p.parameters }), responses } },
    },
  };
}

/** Coinbase App "Data API – Prices": one pair's spot price, no authentication. */
export const COINBASE_DOCUMENTED = documented({
  title: 'Coinbase Data API – Prices',
  version: 'v2',
  docPage: 'https://docs.cdp.coinbase.com/coinbase-app/track-apis/prices.md',
  server: 'https://api.coinbase.com',
  method: 'get',
  path: '/v2/prices/{currency_pair}/spot',
  parameters: [
    { name: 'currency_pair', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z0-9]+-[A-Z]+$' } },
  ],
  responses: {
    '200': {
      description: 'the spot price',
      schema: {
        type: 'object',
        required: ['data'],
        properties: {
          data: {
            type: 'object',
            required: ['amount', 'currency'],
            properties: { amount: decimalString, base: { type: 'string' }, currency: { type: 'string' } },
          },
        },
      },
    },
    default: {
      description: 'API v2 errors: a list of {id, message}',
      schema: {
        type: 'object',
        required: ['errors'],
        properties: {
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'message'],
              properties: { id: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  },
});

const etherscanTransaction = {
  type: 'object',
  required: [
    'blockNumber',
    'timeStamp',
    'hash',
    'nonce',
    'from',
    'to',
    'value',
    'gas',
    'gasPrice',
    'isError',
    'txreceipt_status',
    'contractAddress',
    'gasUsed',
  ],
  properties: {
    blockNumber: unsignedString,
    timeStamp: unsignedString,
    hash: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
    nonce: unsignedString,
    blockHash: { type: 'string' },
    transactionIndex: unsignedString,
    from: address,
    to: addressOrEmpty,
    value: unsignedString,
    gas: unsignedString,
    gasPrice: unsignedString,
    isError: { enum: ['0', '1'] },
    txreceipt_status: { enum: ['', '0', '1'] },
    input: { type: 'string' },
    contractAddress: addressOrEmpty,
    cumulativeGasUsed: unsignedString,
    gasUsed: unsignedString,
    confirmations: unsignedString,
    methodId: { type: 'string' },
    functionName: { type: 'string' },
  },
};

const etherscanSource = {
  type: 'object',
  required: ['SourceCode', 'ABI', 'ContractName', 'CompilerVersion', 'Proxy', 'Implementation'],
  properties: {
    SourceCode: { type: 'string' },
    ABI: { type: 'string' },
    ContractName: { type: 'string' },
    CompilerVersion: { type: 'string' },
    OptimizationUsed: { type: 'string' },
    Runs: { type: 'string' },
    ConstructorArguments: { type: 'string' },
    EVMVersion: { type: 'string' },
    Library: { type: 'string' },
    LicenseType: { type: 'string' },
    Proxy: { enum: ['0', '1'] },
    Implementation: addressOrEmpty,
    SwarmSource: { type: 'string' },
  },
};

/** Etherscan API v2: one endpoint for every chain; the envelope {status, message, result} on every reply. */
export const ETHERSCAN_DOCUMENTED = documented({
  title: 'Etherscan API v2',
  version: 'v2',
  docPage:
    'https://docs.etherscan.io (API v2: Accounts › Normal Transactions By Address; Contracts › Get Contract Source Code)',
  server: 'https://api.etherscan.io',
  key: { in: 'query', name: 'apikey' },
  method: 'get',
  path: '/v2/api',
  parameters: [
    { name: 'chainid', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
    { name: 'module', in: 'query', required: true, schema: { enum: ['account', 'contract'] } },
    { name: 'action', in: 'query', required: true, schema: { enum: ['txlist', 'getsourcecode'] } },
    { name: 'address', in: 'query', required: true, schema: address },
    { name: 'startblock', in: 'query', schema: { type: 'integer', minimum: 0 } },
    { name: 'endblock', in: 'query', schema: { type: 'integer', minimum: 0 } },
    { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
    { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10_000 } },
    { name: 'sort', in: 'query', schema: { enum: ['asc', 'desc'] } },
  ],
  responses: {
    '200': {
      description: 'data (status "1"), or a refusal or empty list (status "0") with the reason in message/result',
      schema: {
        type: 'object',
        required: ['status', 'message', 'result'],
        properties: {
          status: { enum: ['0', '1'] },
          message: { type: 'string' },
          result: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { anyOf: [etherscanTransaction, etherscanSource] } }],
          },
        },
      },
    },
  },
});

const debankToken = {
  type: 'object',
  required: ['id', 'chain', 'symbol', 'decimals', 'price', 'amount'],
  properties: {
    id: { type: 'string' },
    chain: { type: 'string' },
    name: { type: ['string', 'null'] },
    symbol: { type: 'string' },
    display_symbol: { type: ['string', 'null'] },
    optimized_symbol: { type: ['string', 'null'] },
    decimals: { type: 'integer' },
    logo_url: { type: ['string', 'null'] },
    protocol_id: { type: 'string' },
    price: { type: 'number' },
    is_verified: { type: ['boolean', 'null'] },
    is_core: { type: ['boolean', 'null'] },
    is_wallet: { type: 'boolean' },
    time_at: { type: ['number', 'null'] },
    amount: { type: 'number' },
  },
};

/** DeBank Cloud OpenAPI (pro): a wallet's positions in every protocol, key in the AccessKey header. */
export const DEBANK_DOCUMENTED = documented({
  title: 'DeBank Cloud OpenAPI',
  version: 'v1',
  docPage: 'https://docs.cloud.debank.com/en/readme/api-pro-reference/user (Get user complex protocol list)',
  server: 'https://pro-openapi.debank.com',
  key: { in: 'header', name: 'AccessKey' },
  method: 'get',
  path: '/v1/user/all_complex_protocol_list',
  parameters: [
    { name: 'id', in: 'query', required: true, schema: { type: 'string', pattern: '^0x[0-9a-f]{40}$' } },
    { name: 'chain_ids', in: 'query', schema: { type: 'string' } },
  ],
  responses: {
    '200': {
      description: 'every protocol the wallet has positions in, on every chain',
      schema: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'chain', 'name', 'portfolio_item_list'],
          properties: {
            id: { type: 'string' },
            chain: { type: 'string' },
            name: { type: 'string' },
            site_url: { type: ['string', 'null'] },
            logo_url: { type: ['string', 'null'] },
            has_supported_portfolio: { type: 'boolean' },
            tvl: { type: ['number', 'null'] },
            portfolio_item_list: {
              type: 'array',
              items: {
                type: 'object',
                required: ['stats', 'name', 'detail_types', 'detail'],
                properties: {
                  stats: {
                    type: 'object',
                    required: ['asset_usd_value', 'debt_usd_value', 'net_usd_value'],
                    properties: {
                      asset_usd_value: { type: 'number' },
                      debt_usd_value: { type: 'number' },
                      net_usd_value: { type: 'number' },
                    },
                  },
                  update_at: { type: 'number' },
                  name: { type: 'string' },
                  detail_types: { type: 'array', items: { type: 'string' } },
                  detail: {
                    type: 'object',
                    properties: {
                      supply_token_list: { type: 'array', items: debankToken },
                      borrow_token_list: { type: 'array', items: debankToken },
                      reward_token_list: { type: 'array', items: debankToken },
                      health_rate: { type: 'number' },
                    },
                  },
                  pool: { type: 'object' },
                },
              },
            },
          },
        },
      },
    },
  },
});

/** growthepie's public API: every chain's fundamentals of the last 7 days, one row per metric, chain and day. */
export const GROWTHEPIE_DOCUMENTED = documented({
  title: 'growthepie API',
  version: 'v1',
  docPage: 'https://docs.growthepie.com (API: fundamentals_7d.json)',
  server: 'https://api.growthepie.com',
  method: 'get',
  path: '/v1/fundamentals_7d.json',
  responses: {
    '200': {
      description: 'rows of {metric_key, origin_key, date, value}',
      schema: {
        type: 'array',
        items: {
          type: 'object',
          required: ['metric_key', 'origin_key', 'date', 'value'],
          properties: {
            metric_key: { type: 'string' },
            origin_key: { type: 'string' },
            date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
            value: { type: 'number' },
          },
        },
      },
    },
  },
});

const account = { type: ['object', 'null'], required: ['id'], properties: { id: { type: 'string' } } };

/** The ENS subgraph (The Graph): GraphQL over POST; `domains` of the deployed schema (registrant, wrappedOwner, expiryDate). */
/** A Domain as DomainsOfAccount selects it (names by address). */
const domainOfAccount = {
  type: 'object',
  required: ['name', 'expiryDate', 'owner', 'registrant', 'wrappedOwner'],
  properties: {
    name: { type: ['string', 'null'] },
    expiryDate: { anyOf: [unsignedString, { type: 'null' }] },
    owner: account,
    registrant: account,
    wrappedOwner: account,
  },
} as const;

/** A Domain as RecordsOfNames selects it: its resolver's text keys, coin types (BigInt strings) and content hash. */
const domainRecords = {
  type: 'object',
  required: ['name', 'resolver'],
  properties: {
    name: { type: ['string', 'null'] },
    resolver: {
      anyOf: [
        {
          type: 'object',
          required: ['texts', 'coinTypes', 'contentHash'],
          properties: {
            texts: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
            coinTypes: { anyOf: [{ type: 'array', items: unsignedString }, { type: 'null' }] },
            contentHash: { anyOf: [{ type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' }, { type: 'null' }] },
          },
        },
        { type: 'null' },
      ],
    },
  },
} as const;

export const ENS_SUBGRAPH_DOCUMENTED = documented({
  title: 'ENS subgraph GraphQL endpoint',
  version: 'deployed',
  docPage: 'https://docs.ens.domains/web/subgraph',
  method: 'post',
  path: '/',
  responses: {
    '200': {
      description: 'GraphQL reply: data.domains (DomainsOfAccount or RecordsOfNames), or errors',
      schema: {
        anyOf: [
          {
            type: 'object',
            required: ['data'],
            properties: {
              data: {
                type: 'object',
                required: ['domains'],
                properties: {
                  domains: {
                    type: 'array',
                    items: { anyOf: [domainOfAccount, domainRecords] },
                  },
                },
              },
            },
          },
          {
            type: 'object',
            required: ['errors'],
            properties: {
              errors: {
                type: 'array',
                items: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
              },
            },
          },
        ],
      },
    },
  },
});

/** Ethereum's JSON-RPC API: `eth_chainId`, the one call `sources:check` makes to each configured chain. */
export const JSON_RPC_DOCUMENTED = documented({
  title: 'Ethereum JSON-RPC API',
  version: '2.0',
  docPage: 'https://ethereum.org/en/developers/docs/apis/json-rpc/#eth_chainid',
  method: 'post',
  path: '/',
  responses: {
    '200': {
      description: 'a JSON-RPC 2.0 response: the chain id as a hex quantity, or an error',
      schema: {
        type: 'object',
        required: ['jsonrpc', 'id'],
        properties: {
          jsonrpc: { const: '2.0' },
          id: { type: ['integer', 'string', 'null'] },
          result: { type: 'string', pattern: '^0x(0|[1-9a-f][0-9a-f]*)$' },
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'integer' }, message: { type: 'string' } },
          },
        },
        oneOf: [{ required: ['result'] }, { required: ['error'] }],
      },
    },
  },
});
