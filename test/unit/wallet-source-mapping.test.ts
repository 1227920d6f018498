import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { findToken } from '../../src/arguments/token-symbol.js';
import { mapSourceCode, mapTxList } from '../../src/sources/explorer/etherscan-client.js';
import { mapSourcifyContract } from '../../src/sources/explorer/sourcify-client.js';
import { mapOwnedNftPage } from '../../src/sources/nft/alchemy-nft-client.js';
import { decodeTokenUri } from '../../src/sources/rpc/token-uri.js';
import { UpstreamError } from '../../src/sources/upstream-failure.js';
import { LIVE_TOKEN_LISTS } from '../../src/sources/wallet/token-lists.js';
import { validateAddress } from '../../subgraphs/chain/address-checks.js';

describe('token URIs are read, never fetched', () => {
  it('decodes base64, percent-encoded and plain data: JSON', () => {
    const json = JSON.stringify({ name: 'A', image: 'ipfs://x' });
    expect(decodeTokenUri(`data:application/json;base64,${Buffer.from(json).toString('base64')}`)).toEqual({
      kind: 'inline',
      metadata: { name: 'A', image: 'ipfs://x' },
      error: null,
    });
    expect(decodeTokenUri(`data:application/json,${encodeURIComponent(json)}`)).toMatchObject({
      kind: 'inline',
      metadata: { name: 'A' },
    });
    expect(decodeTokenUri(`data:application/json;utf8,${json}`)).toMatchObject({
      kind: 'inline',
      metadata: { name: 'A' },
    });
  });

  it('answers broken inline metadata with a reason instead of failing', () => {
    expect(decodeTokenUri('data:application/json;base64,bm90IGpzb24=')).toEqual({
      kind: 'inline',
      metadata: null,
      error: 'metadata is not valid JSON',
    });
    expect(decodeTokenUri('data:application/json,%E0%A4%A')).toMatchObject({
      metadata: null,
      error: 'metadata is not valid percent-encoding',
    });
    expect(decodeTokenUri('data:image/svg+xml;base64,PHN2Zz4=')).toMatchObject({ metadata: null });
  });

  it('hands back https, ipfs and ar URLs as they are, and nothing for other schemes', () => {
    expect(decodeTokenUri('ipfs://bafy/1.json')).toEqual({ kind: 'url', url: 'ipfs://bafy/1.json' });
    expect(decodeTokenUri('https://example.org/1')).toEqual({ kind: 'url', url: 'https://example.org/1' });
    expect(decodeTokenUri('javascript:alert(1)')).toEqual({ kind: 'none' });
    expect(decodeTokenUri('file:///etc/passwd')).toEqual({ kind: 'none' });
    expect(decodeTokenUri('')).toEqual({ kind: 'none' });
  });
});

describe('EIP-55 validation without upstream', () => {
  it('accepts correct checksums and single-case hex, refuses a wrong checksum and bad syntax', () => {
    expect(validateAddress('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359')).toMatchObject({
      valid: true,
      hasChecksum: true,
    });
    expect(validateAddress('0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toMatchObject({
      valid: true,
      hasChecksum: false,
      checksummed: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    });
    expect(validateAddress('0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359')).toMatchObject({
      valid: true,
      hasChecksum: false,
    });
    expect(validateAddress('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d35A')).toMatchObject({
      valid: false,
      reason: 'EIP-55 checksum does not match',
    });
    expect(validateAddress('fB6916095ca1df60bB79Ce92cE3Ea74c37c5d359')).toMatchObject({
      valid: false,
      checksummed: null,
    });
    expect(validateAddress('x'.repeat(500)).input).toHaveLength(65);
  });
});

describe('Etherscan v2 replies are mapped at the edge', () => {
  it('status 0 "No transactions found" is an empty list', () => {
    expect(mapTxList({ status: '0', message: 'No transactions found', result: [] })).toEqual([]);
  });

  it('the in-band rate limit is a retryable upstream failure; other refusals are not retried', () => {
    const limited = () => mapTxList({ status: '0', message: 'NOTOK', result: 'Max rate limit reached' });
    expect(limited).toThrow(UpstreamError);
    try {
      limited();
    } catch (err) {
      expect((err as UpstreamError).retryable).toBe(true);
    }
    try {
      mapTxList({ status: '0', message: 'NOTOK', result: 'Invalid API Key' });
    } catch (err) {
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as UpstreamError).retryable).toBe(false);
      expect((err as Error).message).not.toMatch(/key=|apikey/i);
    }
  });

  it('a transaction maps to checksummed addresses, ISO time, exact ETH amounts and a status', () => {
    const [tx] = mapTxList({
      status: '1',
      message: 'OK',
      result: [
        {
          hash: '0xab',
          blockNumber: '100',
          timeStamp: '1700000000',
          from: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
          to: '',
          contractAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
          value: '1000000000000000001',
          gasUsed: '21000',
          gasPrice: '1000000000',
          isError: '1',
          txreceipt_status: '0',
          nonce: '7',
          methodId: '0x',
          functionName: '',
        },
      ],
    });
    expect(tx).toEqual({
      hash: '0xab',
      blockNumber: 100,
      timestamp: '2023-11-14T22:13:20.000Z',
      from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      to: null,
      contractAddress: getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3'),
      value: '1.000000000000000001',
      valueWei: '1000000000000000001',
      fee: '0.000021',
      status: 'failed',
      method: null,
      nonce: 7,
    });
  });

  it('getsourcecode of an unverified contract is null; a verified one parses its ABI string', () => {
    expect(
      mapSourceCode({
        status: '1',
        message: 'OK',
        result: [{ ABI: 'Contract source code not verified', ContractName: '' }],
      }),
    ).toBeNull();
    expect(mapSourceCode({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' })).toBeNull();
    expect(
      mapSourceCode({
        status: '1',
        message: 'OK',
        result: [
          {
            ABI: '[{"type":"fallback"}]',
            ContractName: 'X',
            Proxy: '1',
            Implementation: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
          },
        ],
      }),
    ).toMatchObject({
      abi: [{ type: 'fallback' }],
      contractName: 'X',
      proxy: true,
    });
    expect(() => mapSourceCode({ status: '1', message: 'OK', result: [{ ABI: '{not json' }] })).toThrow();
  });
});

describe('Sourcify and Alchemy replies are mapped at the edge', () => {
  it('Sourcify: exact_match and match are verified contracts; anything else is refused', () => {
    expect(mapSourcifyContract({ match: 'exact_match', abi: [], compilation: { name: 'C' } })).toEqual({
      abi: [],
      contractName: 'C',
      match: 'exact_match',
    });
    expect(mapSourcifyContract({ match: null })).toBeNull();
    expect(() => mapSourcifyContract({ match: 'perfect', abi: [] })).toThrow();
  });

  it('Alchemy: a page needs ownedNfts and totalCount; token ids stay decimal strings', () => {
    expect(() => mapOwnedNftPage({ nfts: [] })).toThrow();
    const page = mapOwnedNftPage({
      ownedNfts: [
        {
          contract: { address: '0x7baa3b073d21ee6389fed20a92697c9cb51c7ec3', name: 'C' },
          tokenId: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
          tokenType: 'ERC1155',
          balance: '3',
        },
      ],
      totalCount: 1,
      pageKey: null,
    });
    expect(page.nfts[0]).toMatchObject({
      contract: '0x7baA3B073d21Ee6389FED20A92697C9cb51C7EC3',
      tokenType: 'ERC1155',
      balance: '3',
      collectionName: 'C',
      image: null,
    });
  });
});

describe('token lists', () => {
  it('every listed token has a price listing, so every balance can be valued', () => {
    for (const list of Object.values(LIVE_TOKEN_LISTS)) {
      expect(findToken(list.native.symbol)).toBeDefined();
      for (const token of list.tokens) expect(findToken(token.symbol), token.symbol).toBeDefined();
    }
  });
});
