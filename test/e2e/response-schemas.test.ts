import 'reflect-metadata';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { type GraphQLObjectType, printSchema } from 'graphql';
import { encodeFunctionData, namehash, parseAbi, parseUnits, toHex } from 'viem';
import { packetToBytes } from 'viem/ens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { parse as parseYaml } from 'yaml';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { OpenApiDocument, OperationObject, ResponseObject } from '../../rest-compat/openapi/openapi-types.js';
import { operationSchemas, selfContained } from '../../rest-compat/openapi/operation-schemas.js';
import type { OperationRow } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { demoAssetAddresses } from '../../src/embedded/chain/seed-steps/demo-assets.js';
import { startInProcessGateway } from '../../src/gateway/in-process-gateway.js';
import { readPublishedSchema } from '../../src/gateway/published-schema.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import { bearer, getChallenge, messageFor, newWallet, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

const operationRows = ROUTE_TABLE.rows.filter((row): row is OperationRow => row.kind === 'operation');

let server: TestServer;
let document: OpenApiDocument;
let session: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ SIWE_PER_MINUTE_LIMIT: '1000', SIWE_DAILY_LIMIT: '10000' });
  document = parseYaml(await (await server.get('/api/openapi.yaml')).text()) as OpenApiDocument;
  session = bearer((await signIn(server)).token);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

function documented(row: OperationRow): OperationObject {
  const op = document.paths[row.path]?.[row.method.toLowerCase() as 'get'];
  if (op === undefined) throw new Error(`${row.method} ${row.path} is not documented`);
  return op;
}

interface Call {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  /** Another fetch (one that pays with x402). */
  fetch?: typeof fetch;
}

const assets = demoAssetAddresses();
const service = parseAbi(['function resolve(bytes name, bytes data) view returns (bytes, uint64, bytes)']);
const addr = parseAbi(['function addr(bytes32 node) view returns (address)']);
/** The callData an OffchainResolver puts in its OffchainLookup for addr(name). */
const addrLookup = (name: string) =>
  encodeFunctionData({
    abi: service,
    functionName: 'resolve',
    args: [toHex(packetToBytes(name)), encodeFunctionData({ abi: addr, functionName: 'addr', args: [namehash(name)] })],
  });

async function postJson(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await server.post(path, body, session);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
const newKeyId = async () => ((await postJson('/api/user/keys', { name: 'schema-check' })).key as { id: string }).id;
/** The wallet's one webhook (the free plan holds one), created when it has none. */
async function webhookId(): Promise<string> {
  const list = (await (await server.get('/api/webhooks', session)).json()) as { webhooks: { id: string }[] };
  const held = list.webhooks[0]?.id;
  if (held !== undefined) return held;
  return (await postJson('/api/webhooks', { url: 'https://hooks.example.org/ens', events: ['ens.transfer'] }))
    .id as string;
}
async function signedMessage(): Promise<Call> {
  const wallet = newWallet();
  const message = messageFor(wallet, await getChallenge(server));
  return { body: { message, signature: await wallet.signMessage({ message }) } };
}
async function ccipLookup(): Promise<{ sender: string; data: string }> {
  const label = `schema${Date.now()}`;
  await postJson('/api/subnames/offchain.eth', { label });
  return { sender: '0x8464135c8F25Da09e49BC8782676a84730C318bC', data: addrLookup(`${label}.offchain.eth`) };
}

/**
 * Arguments for the rows whose documented examples name nothing that exists here (ids, a signed message, a served
 * subname), made through the API itself as a caller would; every other row is called with its documented examples.
 */
const REAL_ARGUMENTS: Record<string, () => Promise<Call>> = {
  verifySiwe: signedMessage,
  verifyAuth: signedMessage,
  createApiKey: async () => ({ body: { name: 'schema-check' } }),
  createAuthApiKey: async () => ({ body: { name: 'schema-check' } }),
  rotateApiKey: async () => ({ path: { id: await newKeyId() } }),
  deleteApiKey: async () => ({ path: { id: await newKeyId() } }),
  purchaseCredits: async () => ({
    path: { id: await newKeyId() },
    body: { packageId: 'credits_100' },
    fetch: wrapFetchV1(fetch, getDevAccounts()[8]!, parseUnits('1', 6)) as typeof fetch,
  }),
  getNftMetadata: async () => ({ path: { contract: assets.collectible, tokenId: '1' } }),
  getTokenInfo: async () => ({ path: { address: assets.tokens.USDC } }),
  getContractAbi: async () => ({ path: { address: assets.tokens.USDC } }),
  postEnsBulk: async () => ({ body: { names: ['alice.eth', 'nobody-here.eth'] } }),
  ccipResolve: async () => ({ path: await ccipLookup() }),
  ccipResolvePost: async () => ({ body: await ccipLookup() }),
  getSubname: async () => {
    const label = `schema${Date.now()}`;
    await postJson('/api/subnames/offchain.eth', { label });
    return { path: { parent_name: 'offchain.eth', label } };
  },
  getWebhook: async () => ({ path: { id: await webhookId() } }),
  updateWebhook: async () => ({ path: { id: await webhookId() }, body: { status: 'paused' } }),
  deleteWebhook: async () => ({ path: { id: await webhookId() } }),
  testWebhook: async () => ({ path: { id: await webhookId() } }),
  listWebhookDeliveries: async () => ({ path: { id: await webhookId() } }),
  redeliverWebhookDelivery: async () => {
    const id = await webhookId();
    const test = (await postJson(`/api/webhooks/${id}/test`, {})) as { delivery: { id: string } };
    return { path: { id, deliveryId: test.delivery.id } };
  },
};

/** Calls a row as a signed-in wallet, with its real arguments or else the examples its OpenAPI operation documents. */
async function call(row: OperationRow): Promise<Response> {
  const { inputExample } = operationSchemas(document, documented(row));
  const real = (await REAL_ARGUMENTS[row.id]?.()) ?? {};
  const input = {
    path: real.path ?? inputExample.path,
    query: real.query ?? inputExample.query,
    body: real.body ?? inputExample.body,
  };
  const path = row.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(input.path[name])));
  const query = new URLSearchParams(Object.entries(input.query).map(([k, v]) => [k, String(v)])).toString();
  const hasBody = row.method !== 'GET' && row.method !== 'DELETE';
  const target = `${path}${query ? `?${query}` : ''}`;
  const init = {
    method: row.method,
    headers: { ...session, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    ...(hasBody ? { body: JSON.stringify(input.body) } : {}),
  };
  // A paying client (x402) reaches the server over its socket, as it would; every other call goes in process.
  return real.fetch ? real.fetch(`${server.url}${target}`, init) : server.request({ path: target, ...init });
}

describe('every operation row documents the body it answers', () => {
  it("each operation's x-graphql-operation is the operation its row runs", async () => {
    const subgraphs = await buildAllSubgraphs();
    const gateway = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    try {
      const compiled = compileRouteTable(ROUTE_TABLE, gateway.apiSchema);
      for (const row of operationRows) {
        const runs = compiled.get(row)?.prepared.source;
        expect(runs, row.id).toMatch(/^(?:query|mutation) /);
        expect(documented(row)['x-graphql-operation'], row.id).toBe(runs);
      }
    } finally {
      await gateway.stop();
    }
  });

  it('carries the facts the GraphQL classes declare with @Extensions: formats, enums and examples', () => {
    const property = (id: string, name: string): Record<string, unknown> => {
      const row = operationRows.find((r) => r.id === id)!;
      const ok = documented(row).responses['200'] as ResponseObject;
      const body = selfContained(document, ok.content!['application/json']!.schema!);
      return (body.properties as Record<string, Record<string, unknown>>)[name]!;
    };
    for (const id of ['getAuthNonce', 'createAuthNonce', 'verifyAuth'])
      expect(property(id, 'expiresAt'), id).toMatchObject({ type: 'string', format: 'date-time' });
    for (const id of ['getSubname', 'registerSubname', 'registerCcipName']) {
      expect(property(id, 'createdAt'), id).toMatchObject({ format: 'date-time' });
      expect(property(id, 'name').example, id).toBe('dave.offchain.eth');
      // Declared once on Subname.records as GraphQL answers it; the row's shape documents it as the maps it answers.
      expect(property(id, 'records').example, id).toMatchObject({
        addresses: { '60': '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
        texts: { url: 'https://dave.example.org', 'com.github': 'dave' },
      });
    }
    expect(property('searchFarcasterUsers', 'type')).toMatchObject({ type: 'string', enum: ['users'] });
    // Each example is a value its own schema accepts.
    const ajv = new Ajv2020({ strict: false, logger: false });
    for (const [id, name] of [
      ['getSubname', 'records'],
      ['getEnsProfile', 'records'],
      ['getEnsPrimaryName', 'name'],
    ] as const) {
      const schema = property(id, name);
      expect(ajv.validate(schema, schema.example), `${id} ${name}`).toBe(true);
    }
    expect(property('getEnsPrimaryName', 'name').example).toBe('alice.eth');
    for (const id of ['getEnsProfile', 'getFullProfile'])
      expect(property(id, 'records').example, id).toEqual({
        twitter: 'alice',
        github: 'alice-codes',
        url: 'https://alice.example.org',
        'com.discord': 'alice.eth',
      });
  });

  it('keeps them on the API schema fields, out of the SDL clients and Apollo Router see', async () => {
    const subgraphs = await buildAllSubgraphs();
    const gateway = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    try {
      const challenge = gateway.apiSchema.getType('SiweChallenge') as GraphQLObjectType;
      expect(challenge.getFields().expiresAt?.extensions.jsonSchema).toEqual({ format: 'date-time' });
      for (const sdl of [printSchema(gateway.apiSchema), gateway.supergraphSdl, ...subgraphs.map((s) => s.sdl)])
        expect(sdl).not.toMatch(/date-time|jsonSchema|alice-codes/);
    } finally {
      await gateway.stop();
    }
  });

  it("the 200 body of each row, called with real arguments, validates against the row's 200 schema", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    for (const format of ['int32', 'float']) ajv.addFormat(format, true);
    const answered: string[] = [];
    const other: string[] = [];
    // Rows that end or replace the session run last, so the others keep it.
    const last = (row: OperationRow) => Number(row.id === 'refreshSiweSession' || row.endsSession === true);
    const ordered = [...operationRows].sort((a, b) => last(a) - last(b));
    // One wallet calls every row: SIWE_PER_MINUTE_LIMIT (beforeAll) scales its tier limits far above what this
    // takes, while each new sign-in would spend two of the 20 anonymous Auth-tier calls a minute of this IP.
    for (const row of ordered) {
      const res = await call(row);
      if (res.status !== 200) {
        other.push(`${row.id} ${res.status} ${(await res.text()).slice(0, 200)}`);
        continue;
      }
      const ok = documented(row).responses['200'] as ResponseObject;
      const schema = ok.content?.['application/json']?.schema;
      expect(schema, row.id).toBeDefined();
      const validate = ajv.compile(selfContained(document, schema!));
      const body = await res.json();
      expect(validate(body) ? [] : validate.errors, `${row.id}: ${JSON.stringify(body).slice(0, 400)}`).toEqual([]);
      answered.push(row.id);
    }
    expect(other).toEqual([]);
    expect(answered.length).toBe(operationRows.length);
  }, 300_000);
});
