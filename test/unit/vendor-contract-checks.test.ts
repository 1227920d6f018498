import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../checks/source-contracts/openapi-schema.js';
import { type SentRequest, VendorContract } from '../../checks/source-contracts/vendor-contract.js';
import {
  loadVendorContract,
  readVendorDocument,
  requestExpectations,
  vendorContractSpec,
} from '../../checks/source-contracts/vendor-contracts.js';

const request = (url: string, headers: Record<string, string> = {}): SentRequest => ({
  method: 'GET',
  url: new URL(url),
  headers,
});

const expectationsFor = (vendor: string, key?: string) => requestExpectations(vendorContractSpec(vendor), key);

function tinyContract(openapi: string, schema: Record<string, unknown>): VendorContract {
  const document: OpenApiDocument = {
    openapi,
    paths: {
      '/thing': {
        get: {
          responses: { '200': { description: 'a thing', content: { 'application/json': { schema } } } },
        },
      },
    },
  };
  return new VendorContract(`tiny-${openapi}-${JSON.stringify(schema)}`, document);
}

describe('a vendor contract is read as JSON Schema, null honoured the way the vendor writes it', () => {
  it('OpenAPI 3.0: a field marked nullable takes null, an unmarked one does not', () => {
    const contract = tinyContract('3.0.4', {
      type: 'object',
      properties: {
        maybe: { type: 'string', nullable: true },
        ref: { allOf: [{ type: 'integer' }], nullable: true },
        never: { type: 'string' },
      },
    });
    const op = contract.findOperation('GET', '/thing')!;
    expect(contract.checkReply(op, 200, { maybe: null, ref: null }).errors).toEqual([]);
    expect(contract.checkReply(op, 200, { ref: 3 }).errors).toEqual([]);
    expect(contract.checkReply(op, 200, { never: null }).errors).toEqual(['/never must be string']);
  });

  it('OpenAPI 3.1: null comes from a type array, or from an enum that lists it (Sourcify’s …Nullable enums)', () => {
    const contract = tinyContract('3.1.0', {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'string', enum: ['match', null] },
        c: { type: 'string' },
      },
    });
    const op = contract.findOperation('GET', '/thing')!;
    expect(contract.checkReply(op, 200, { a: null, b: null }).errors).toEqual([]);
    expect(contract.checkReply(op, 200, { c: null }).errors).toHaveLength(1);
  });

  it('a status the operation does not document is reported as undocumented, not as valid', () => {
    const contract = tinyContract('3.1.0', { type: 'object' });
    expect(contract.checkReply(contract.findOperation('GET', '/thing')!, 404, {})).toEqual({
      documented: false,
      hasSchema: false,
      errors: [],
    });
  });

  it("$refs resolve through components: Sourcify's 404 response is the minimal contract object with null matches", () => {
    const sourcify = loadVendorContract('sourcify');
    const op = sourcify.findOperation('GET', '/v2/contract/1/0x0000000000000000000000000000000000000001')!;
    const notVerified = {
      match: null,
      creationMatch: null,
      runtimeMatch: null,
      chainId: '1',
      address: '0x0000000000000000000000000000000000000001',
    };
    expect(sourcify.checkReply(op, 404, notVerified).errors).toEqual([]);
    // The shape the replay used to record for it.
    expect(sourcify.checkReply(op, 404, { customCode: 'not_found', message: 'not verified' }).errors).not.toEqual([]);
  });
});

describe('a request is checked against the operation it calls', () => {
  it("the hub's reverse is a boolean: Snapchain takes true, and refuses the 1 the client used to send", () => {
    const hub = loadVendorContract('farcaster-hub');
    const expect_ = expectationsFor('farcaster-hub', 'k');
    const at = (query: string) =>
      hub.checkRequest(
        request(`https://snapchain-api.neynar.com/v1/castsByFid?${query}`, { 'x-api-key': 'k' }),
        expect_,
      );
    expect(at('fid=3&pageSize=20&reverse=true')).toEqual([]);
    expect(at('fid=3&pageSize=20&reverse=1')).toEqual(['query parameter reverse=1: (root) must be boolean']);
  });

  it("Neynar's paths end in a slash, as its contract writes them; an unknown or missing parameter is named", () => {
    const neynar = loadVendorContract('neynar');
    const expect_ = expectationsFor('neynar', 'k');
    const key = { 'x-api-key': 'k' };
    expect(neynar.checkRequest(request('https://api.neynar.com/v2/farcaster/user/bulk/?fids=3', key), expect_)).toEqual(
      [],
    );
    expect(neynar.checkRequest(request('https://api.neynar.com/v2/farcaster/user/bulk?fids=3', key), expect_)).toEqual([
      'no GET operation matches /v2/farcaster/user/bulk',
    ]);
    expect(
      neynar.checkRequest(request('https://api.neynar.com/v2/farcaster/followers/?fid=3&size=5', key), expect_),
    ).toEqual(['query parameter size is not declared by GET /v2/farcaster/followers/']);
    expect(neynar.checkRequest(request('https://api.neynar.com/v2/farcaster/followers/', key), expect_)).toEqual([
      'required query parameter fid is missing',
    ]);
  });

  it('the key must travel where the contract says: a demo key header on the pro host is not the pro header', () => {
    const pro = loadVendorContract('coingecko-pro');
    const url = 'https://pro-api.coingecko.com/api/v3/search/trending';
    const expect_ = expectationsFor('coingecko-pro', 'k');
    expect(pro.checkRequest(request(url, { 'x-cg-pro-api-key': 'k' }), expect_)).toEqual([]);
    expect(pro.checkRequest(request(url, { 'x-cg-demo-api-key': 'k' }), expect_)).toEqual([
      "the key is not sent as the contract's header x-cg-pro-api-key or query x_cg_pro_api_key",
    ]);
    const etherscan = loadVendorContract('etherscan');
    const txlist =
      'https://api.etherscan.io/v2/api?chainid=1&module=account&action=txlist&address=0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    expect(etherscan.checkRequest(request(txlist), expectationsFor('etherscan', 'k'))).toEqual([
      "the key is not sent as the contract's query apikey",
    ]);
    expect(etherscan.checkRequest(request(`${txlist}&apikey=k`), expectationsFor('etherscan', 'k'))).toEqual([]);
  });

  it("DefiLlama's pro key is the first path segment; hacks on the free host match no operation of the free contract", () => {
    const pro = loadVendorContract('defillama-pro');
    expect(
      pro.checkRequest(request('https://pro-api.llama.fi/k/api/hacks'), expectationsFor('defillama-pro', 'k')),
    ).toEqual([]);
    expect(
      pro.checkRequest(request('https://pro-api.llama.fi/api/hacks'), expectationsFor('defillama-pro', 'k')),
    ).toEqual(['path /api/hacks is not under /k']);
    const free = loadVendorContract('defillama');
    expect(free.checkRequest(request('https://api.llama.fi/hacks'), expectationsFor('defillama'))).toEqual([
      'no GET operation matches /hacks',
    ]);
  });

  it("one document, three hosts: DefiLlama's /pools is served by yields.llama.fi, not api.llama.fi", () => {
    const free = loadVendorContract('defillama');
    expect(free.checkRequest(request('https://yields.llama.fi/pools'), expectationsFor('defillama-yields'))).toEqual(
      [],
    );
    expect(free.checkRequest(request('https://api.llama.fi/pools'), expectationsFor('defillama'))).toEqual([
      '/pools is served from https://yields.llama.fi, not https://api.llama.fi',
    ]);
  });
});

describe('amendments say where a server sends what its published contract does not describe', () => {
  const registerEvent = {
    events: [
      {
        type: 'EVENT_TYPE_ID_REGISTER',
        chainId: 10,
        blockNumber: 108865673,
        blockHash: '0xb8b5fb3be2b6e777cc3c198f28773726a51f599afa4a8e031908192826fb99e7',
        blockTimestamp: 1693330123,
        transactionHash: '0x40c4dbe0028a97491803cbd66bd5c26755ff77ee816358655bb96721cc663d41',
        logIndex: 2,
        fid: 3,
        idRegisterEventBody: {
          to: '0xa5db33de6502cf8e01ba2ad925995751076fb845',
          eventType: 'Register',
          from: '0x',
          recoveryAddress: '0x00000000fcb080a4d6c39a9354da9eb9bc104cd7',
        },
        txIndex: 0,
        version: 0,
      },
    ],
  };

  it("Snapchain's Register event breaks Neynar's published hub contract (Hubble's names) and matches the amended one", () => {
    const published = new VendorContract('hub-published', readVendorDocument(vendorContractSpec('farcaster-hub')));
    const amended = loadVendorContract('farcaster-hub');
    const op = amended.findOperation('GET', '/v1/onChainEventsByFid')!;
    expect(published.checkReply(op, 200, registerEvent).errors).not.toEqual([]);
    expect(amended.checkReply(op, 200, registerEvent).errors).toEqual([]);
  });

  it("Snapchain's refusal {error, error_detail} is the hub's documented error reply once amended", () => {
    const amended = loadVendorContract('farcaster-hub');
    const op = amended.findOperation('GET', '/v1/userNameProofByName')!;
    expect(amended.checkReply(op, 400, { error: 'Failed to get username proof', error_detail: null }).errors).toEqual(
      [],
    );
  });

  it('Alchemy fields its own reply examples show as null take null; others do not', () => {
    const alchemy = loadVendorContract('alchemy-nft');
    const op = alchemy.findOperation('GET', '/v3/k/getNFTsForOwner')!;
    expect(alchemy.checkReply(op, 200, { ownedNfts: [], totalCount: 0, pageKey: null }).errors).toEqual([]);
    expect(alchemy.checkReply(op, 200, { ownedNfts: null, totalCount: 0 }).errors).not.toEqual([]);
  });
});
