// Copies from the vendors' published OpenAPI documents only the operations our source clients call, with every
// component they reference, unchanged; run it again (with the originals beside it) after updating an original.
// Usage: node scripts/extract-vendor-contracts.mjs <dir holding the originals> [output dir]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';

const NEYNAR = { repository: 'neynarxyz/OAS', commit: '4b9ecc668f1abfcef027b96f56d24440a9d3b233', licence: 'MIT' };
const COINGECKO = {
  repository: 'coingecko/coingecko-api-oas',
  commit: '83d7556f3ed967a60fadcd07345b9bdcf06c0485',
  licence: 'MIT',
};
const DEFILLAMA = {
  repository: 'DefiLlama/api-docs',
  commit: '3a45e4e5438754641382a4bb97dec3022b547e61',
  licence: 'MIT',
};
const COINGECKO_OPERATIONS = ['get /simple/price', 'get /coins/{id}/market_chart', 'get /search/trending', 'get /ping'];

/** Each original, where it came from, and the operations (method and path as the document writes them) kept. */
export const EXTRACTS = [
  {
    file: 'neynar-v2.yaml',
    source: { ...NEYNAR, path: 'src/api/spec.yaml' },
    operations: [
      'get /v2/farcaster/user/by_username/',
      'get /v2/farcaster/user/bulk/',
      'get /v2/farcaster/user/bulk-by-address/',
      'get /v2/farcaster/user/search/',
      'get /v2/farcaster/feed/user/casts/',
      'get /v2/farcaster/feed/',
      'get /v2/farcaster/followers/',
    ],
  },
  {
    file: 'farcaster-hub.yaml',
    source: { ...NEYNAR, path: 'src/hub-api/spec.yaml' },
    operations: [
      'get /v1/userNameProofByName',
      'get /v1/onChainEventsByFid',
      'get /v1/userDataByFid',
      'get /v1/verificationsByFid',
      'get /v1/castsByFid',
      'get /v1/linksByTargetFid',
    ],
  },
  { file: 'coingecko-demo.json', source: { ...COINGECKO, path: 'demo-api.json' }, operations: COINGECKO_OPERATIONS },
  { file: 'coingecko-pro.json', source: { ...COINGECKO, path: 'pro-api.json' }, operations: COINGECKO_OPERATIONS },
  {
    file: 'defillama-free.json',
    source: { ...DEFILLAMA, path: 'defillama-openapi-free.json' },
    operations: [
      'get /protocols',
      'get /protocol/{protocol}',
      'get /tvl/{protocol}',
      'get /prices/current/{coins}',
      'get /pools',
    ],
  },
  {
    file: 'defillama-pro.json',
    source: { ...DEFILLAMA, path: 'defillama-openapi-pro.json' },
    operations: ['get /api/emissions', 'get /api/hacks', 'get /api/raises'],
  },
  {
    file: 'sourcify-apiv2.yaml',
    source: {
      repository: 'argotorg/sourcify',
      path: 'services/server/src/apiv2.yaml',
      commit: '4208c592343c850f2cb061b9e62141010ef0c9ec',
      licence: 'MIT',
    },
    operations: ['get /v2/contract/{chainId}/{address}'],
  },
  {
    file: 'alchemy-nft.yaml',
    source: {
      repository: 'alchemyplatform/docs',
      path: 'src/openapi/nft/nft.yaml',
      commit: '822411878a78e58ca5697f0dde0e2e9719c56851',
      licence: 'CC BY 4.0',
    },
    operations: ['get /v3/{apiKey}/getNFTsForOwner'],
  },
];

const PATH_ITEM_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every internal `#/…` reference reachable from `value`, followed through the document. */
function collectRefs(doc, value, seen) {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(doc, v, seen);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value)) {
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/') && !seen.has(v)) {
      seen.add(v);
      collectRefs(doc, resolvePointer(doc, v), seen);
    } else collectRefs(doc, v, seen);
  }
}

function resolvePointer(doc, ref) {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => {
      if (node === undefined || !(key in node)) throw new Error(`dangling $ref ${ref}`);
      return node[key];
    }, doc);
}

function extract(doc, operations) {
  const paths = {};
  for (const operation of operations) {
    const [method, path] = operation.split(' ');
    const item = doc.paths[path];
    if (!item?.[method]) throw new Error(`no operation ${operation}`);
    paths[path] ??= Object.fromEntries(Object.entries(item).filter(([k]) => !PATH_ITEM_KEYS.has(k)));
    paths[path][method] = item[method];
  }
  const refs = new Set();
  collectRefs(doc, paths, refs);
  const schemes = doc.components?.securitySchemes;
  const components = schemes ? { securitySchemes: schemes } : {};
  for (const ref of [...refs].sort()) {
    const [, section, kind, name] = ref.split('/');
    if (section !== 'components') throw new Error(`reference outside components: ${ref}`);
    components[kind] ??= {};
    components[kind][name.replace(/~1/g, '/').replace(/~0/g, '~')] = resolvePointer(
      doc,
      `#/components/${kind}/${name}`,
    );
  }
  const info = doc.info ?? {};
  return {
    openapi: doc.openapi,
    ...(doc.info
      ? { info: { title: info.title, version: info.version, ...(info.license ? { license: info.license } : {}) } }
      : {}),
    ...(doc.servers ? { servers: doc.servers } : {}),
    ...(doc.security ? { security: doc.security } : {}),
    paths,
    components,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [originals, out = 'checks/vendor-openapi'] = process.argv.slice(2);
  if (!originals) throw new Error('usage: node scripts/extract-vendor-contracts.mjs <dir of originals> [out dir]');
  for (const { file, source, operations } of EXTRACTS) {
    const text = readFileSync(join(originals, file), 'utf8');
    const doc = file.endsWith('.json') ? JSON.parse(text) : parse(text);
    const subset = { 'x-source': { ...source, operations }, ...extract(doc, operations) };
    const target = resolve(out, file.replace(/\.json$|\.yaml$/, '.yaml'));
    writeFileSync(target, stringify(subset, { lineWidth: 0, aliasDuplicateObjects: false }));
    console.log(`${target}: ${operations.length} operations, ${Buffer.byteLength(stringify(subset))} bytes`);
  }
}
