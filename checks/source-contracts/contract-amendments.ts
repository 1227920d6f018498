import type { OpenApiDocument } from './openapi-schema.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Where a vendor's published contract disagrees with what its server sends, the one change that makes the contract
 * say what is sent, and the evidence. Applied to the JSON Schema 2020-12 form of the document when it is loaded.
 */
export type ContractAmendment =
  | {
      kind: 'replace-schema';
      /** A schema under `#/components/schemas/`. */
      schema: string;
      /** The schema as sent, given the published one. */
      with: (published: Json) => Json;
      reason: string;
      evidence: string;
    }
  | {
      kind: 'admit-nulls-its-examples-show';
      reason: string;
      evidence: string;
    };

/** Adds null to what a schema node admits, in place (the node may be shared through `$ref`s). */
function admitNull(node: Json): void {
  if (typeof node.type === 'string') node.type = node.type === 'null' ? 'null' : [node.type, 'null'];
  else if (Array.isArray(node.type)) {
    if (!node.type.includes('null')) node.type = [...node.type, 'null'];
  } else {
    const original = { ...node };
    for (const key of Object.keys(node)) delete node[key];
    node.anyOf = [original, { type: 'null' }];
  }
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
}

function follow(doc: OpenApiDocument, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 20 && isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((n, key) => (isObject(n) ? n[key] : undefined), doc);
  }
  return current;
}

/** Walks an example value alongside its schema; where the example holds null, the schema is made to admit it. */
function admitExampleNulls(doc: OpenApiDocument, schemaRef: unknown, value: unknown, seen: Set<unknown>): void {
  const schema = follow(doc, schemaRef);
  if (!isObject(schema)) return;
  if (value === null) {
    admitNull(schema);
    return;
  }
  if (seen.has(schema) && typeof value !== 'object') return;
  const parts = [schema, ...['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(schema[k]) ? schema[k] : []))];
  if (Array.isArray(value)) {
    for (const part of parts) {
      const items = isObject(part) ? part.items : undefined;
      if (items !== undefined) for (const item of value) admitExampleNulls(doc, items, item, seen);
    }
    return;
  }
  if (!isObject(value)) return;
  seen.add(schema);
  for (const [key, child] of Object.entries(value)) {
    for (const part of parts) {
      const resolved = follow(doc, part);
      const properties = isObject(resolved) && isObject(resolved.properties) ? resolved.properties : undefined;
      if (properties && key in properties) admitExampleNulls(doc, properties[key], child, seen);
    }
  }
}

function admitNullsOfExamples(doc: OpenApiDocument): void {
  for (const item of Object.values(doc.paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
      for (const response of Object.values(responses)) {
        const content = follow(doc, response);
        const media = isObject(content) && isObject(content.content) ? Object.values(content.content) : [];
        for (const type of media) {
          if (!isObject(type)) continue;
          const examples = isObject(type.examples) ? Object.values(type.examples) : [];
          const values = [
            ...('example' in type ? [type.example] : []),
            ...examples.map((e) => follow(doc, e)).flatMap((e) => (isObject(e) && 'value' in e ? [e.value] : [])),
          ];
          for (const value of values) admitExampleNulls(doc, type.schema, value, new Set());
        }
      }
    }
  }
}

/**
 * The document with each amendment applied (the document is modified and returned).
 * @example applyAmendments(doc, HUB_AMENDMENTS)
 */
export function applyAmendments(doc: OpenApiDocument, amendments: readonly ContractAmendment[]): OpenApiDocument {
  for (const amendment of amendments) {
    if (amendment.kind === 'admit-nulls-its-examples-show') {
      admitNullsOfExamples(doc);
      continue;
    }
    const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : undefined;
    const published = schemas?.[amendment.schema];
    if (!schemas || !isObject(published)) throw new Error(`no schema ${amendment.schema} to amend`);
    schemas[amendment.schema] = amendment.with(published);
  }
  return doc;
}

/** Snapchain's HTTP server, the code that answers at snapchain-api.neynar.com (GPL-3.0, read, not copied). */
const SNAPCHAIN_SERVER = 'farcasterxyz/snapchain src/network/http_server.rs @ 8f82bcc68dd4e5c75b4a4814bf6fc6b54215a73c';

const nullableRef = (ref: string): Json => ({ anyOf: [{ $ref: ref }, { type: 'null' }] });

/** Where Neynar's hub contract still describes Hubble and Snapchain sends something else. */
export const SNAPCHAIN_AMENDMENTS: readonly ContractAmendment[] = [
  {
    kind: 'replace-schema',
    schema: 'IdRegisterEventType',
    with: (published) => ({
      ...published,
      enum: [...(published.enum as unknown[]), 'None', 'Register', 'Transfer', 'ChangeRecovery'],
    }),
    reason: "Snapchain writes the ID Registry event type as its Rust enum's name (Register), not Hubble's proto name",
    evidence: `${SNAPCHAIN_SERVER}: enum IdRegisterEventType { None, Register, Transfer, ChangeRecovery }`,
  },
  {
    kind: 'replace-schema',
    schema: 'MessageDataVerificationAdd',
    with: (published) => ({
      anyOf: [
        published,
        {
          allOf: [
            { $ref: '#/components/schemas/MessageDataCommon' },
            {
              type: 'object',
              required: ['verificationAddAddressBody'],
              properties: {
                verificationAddAddressBody: {
                  type: 'object',
                  required: ['address', 'claimSignature', 'blockHash', 'type', 'chainId', 'protocol'],
                  properties: {
                    address: { type: 'string', pattern: '^(?:0x[a-fA-F0-9]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$' },
                    claimSignature: {
                      type: 'string',
                      pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
                    },
                    blockHash: { type: 'string', pattern: '^(0x[a-fA-F0-9]{64}|[1-9A-HJ-NP-Za-km-z]{32,44})$' },
                    type: { type: 'integer' },
                    chainId: { type: 'integer' },
                    protocol: { enum: ['PROTOCOL_ETHEREUM', 'PROTOCOL_SOLANA'] },
                  },
                },
              },
            },
          ],
        },
      ],
    }),
    reason:
      'Snapchain sends verificationAddAddressBody {address, claimSignature (base64), blockHash, type, chainId, protocol}; the contract still names Hubble’s verificationAddEthAddressBody',
    evidence: `${SNAPCHAIN_SERVER}: struct VerificationAddAddressBody`,
  },
  {
    kind: 'replace-schema',
    schema: 'CastAddBody',
    with: (published) => {
      const properties = published.properties as Json;
      return {
        ...published,
        properties: {
          ...properties,
          parentCastId: nullableRef('#/components/schemas/CastId'),
          parentUrl: { type: ['string', 'null'] },
          type: { enum: ['CAST', 'LONG_CAST', 'TEN_K_CAST'] },
        },
      };
    },
    reason:
      'Snapchain writes parentCastId and parentUrl as null on a cast that replies to nothing, and adds the cast type',
    evidence: `${SNAPCHAIN_SERVER}: struct CastAddBody (Option fields without skip_serializing_if)`,
  },
  {
    kind: 'replace-schema',
    schema: 'LinkBody',
    with: (published) => ({
      ...published,
      properties: { ...(published.properties as Json), displayTimestamp: { type: ['integer', 'null'] } },
    }),
    reason: 'Snapchain writes displayTimestamp as null when the link has none',
    evidence: `${SNAPCHAIN_SERVER}: struct LinkBody (display_timestamp: Option<u32>)`,
  },
  {
    kind: 'replace-schema',
    schema: 'ErrorResponse',
    with: (published) => ({
      anyOf: [
        published,
        {
          type: 'object',
          required: ['error', 'error_detail'],
          properties: { error: { type: 'string' }, error_detail: { type: ['string', 'null'] } },
        },
      ],
    }),
    reason:
      'Snapchain answers a failed request with HTTP 400 {error, error_detail} (an unknown fname among them), not Hubble’s {errCode, …}',
    evidence: `${SNAPCHAIN_SERVER}: struct ErrorResponse { error, error_detail }`,
  },
];

/** Alchemy's schemas type many fields string or object that its own reply examples (and its API) give as null. */
export const ALCHEMY_AMENDMENTS: readonly ContractAmendment[] = [
  {
    kind: 'admit-nulls-its-examples-show',
    reason:
      'the document’s own getNFTsForOwner reply examples show null for fields its schemas type string/number/object (totalSupply, isSpam, image.*, raw.error, pageKey …)',
    evidence:
      'alchemyplatform/docs src/openapi/nft/nft.yaml @ 822411878a78e58ca5697f0dde0e2e9719c56851, components/examples',
  },
];
