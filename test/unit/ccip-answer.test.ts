import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeFunctionData, type Hex, namehash, parseAbi, recoverAddress, toHex } from 'viem';
import { packetToBytes } from 'viem/ens';
import { describe, expect, it } from 'vitest';
import { DnsNameError, decodeDnsName } from '../../src/ccip/dns-name.js';
import { recordResult } from '../../src/ccip/record-result.js';
import { decodeResolveRequest, ResolveRequestError, resolverServiceAbi } from '../../src/ccip/resolve-request.js';
import { offchainAnswerHash, signOffchainAnswer } from '../../src/ccip/sign-answer.js';

/** test/fixtures/vectors/ccip (source in its README): one complete OffchainResolver answer, computed with viem and cross-checked with ethers. */
const vector = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'vectors', 'ccip', 'offchain-resolver-addr.json'), 'utf8'),
) as Record<string, string> & { expires: number };

const records = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function name(bytes32 node) view returns (string)',
  'function pubkey(bytes32 node) view returns (bytes32 x, bytes32 y)',
]);

const requestFor = (name: string, inner: Hex): Hex =>
  encodeFunctionData({ abi: resolverServiceAbi, functionName: 'resolve', args: [toHex(packetToBytes(name)), inner] });

describe('a gateway answer is exactly what ENS’s OffchainResolver verifies (shared vector)', () => {
  it('the request decodes to test.eth asking addr(bytes32) of its namehash', () => {
    expect(decodeDnsName(vector.dnsEncodedName as Hex)).toBe(vector.name);
    expect(decodeResolveRequest(vector.request as Hex)).toEqual({
      name: 'test.eth',
      node: vector.node,
      query: { kind: 'addr' },
    });
  });

  it('the result is the address ABI-encoded as addr(bytes32) returns it', () => {
    expect(recordResult({ kind: 'addr' }, { addresses: { '60': vector.signer! }, texts: {} })).toBe(vector.result);
  });

  it('the signed hash, the 65-byte signature and the encoded data match the vector byte for byte', async () => {
    const p = {
      resolver: vector.resolver as Hex,
      expires: BigInt(vector.expires),
      request: vector.request as Hex,
      result: vector.result as Hex,
    };
    expect(offchainAnswerHash(p)).toBe(vector.messageHash);
    const signed = await signOffchainAnswer(p, vector.signerPrivateKey as Hex);
    expect(signed.signature).toBe(vector.signature);
    expect((signed.signature.length - 2) / 2).toBe(65);
    expect(signed.data).toBe(vector.data);
    // Signed as a raw digest: the signer is recovered from the hash itself, with no EIP-191 prefix.
    expect(await recoverAddress({ hash: signed.messageHash, signature: signed.signature })).toBe(vector.signer);
  });
});

describe('the gateway refuses requests it must not sign', () => {
  it('a node that is not namehash(name) is refused', () => {
    const inner = encodeFunctionData({ abi: records, functionName: 'addr', args: [namehash('other.eth')] });
    expect(() => decodeResolveRequest(requestFor('test.eth', inner))).toThrow(ResolveRequestError);
  });

  it('addr(bytes32,uint256), text(bytes32,string), contenthash(bytes32) and name(bytes32) are read; any other record is refused', () => {
    const node = namehash('dave.offchain.eth');
    const decode = (inner: Hex) => decodeResolveRequest(requestFor('dave.offchain.eth', inner)).query;
    expect(decode(encodeFunctionData({ abi: records, functionName: 'addr', args: [node, 2147483658n] }))).toEqual({
      kind: 'addrByCoin',
      coinType: 2147483658n,
    });
    expect(decode(encodeFunctionData({ abi: records, functionName: 'text', args: [node, 'url'] }))).toEqual({
      kind: 'text',
      key: 'url',
    });
    expect(decode(encodeFunctionData({ abi: records, functionName: 'contenthash', args: [node] }))).toEqual({
      kind: 'contenthash',
    });
    // name(bytes32): the reverse record ENSIP-19 L2 primary names are read by (80002105.reverse on the embedded chain).
    expect(decode(encodeFunctionData({ abi: records, functionName: 'name', args: [node] }))).toEqual({ kind: 'name' });
    expect(() => decode(encodeFunctionData({ abi: records, functionName: 'pubkey', args: [node] }))).toThrow(
      /unsupported record/,
    );
  });

  it('calldata that is not resolve(bytes,bytes) is refused', () => {
    expect(() => decodeResolveRequest('0xdeadbeef')).toThrow(ResolveRequestError);
    expect(() => decodeResolveRequest(vector.request!.slice(0, 100) as Hex)).toThrow(ResolveRequestError);
  });

  it('a DNS-encoded name must end with its zero byte, hold UTF-8 labels without dots, and not be the root', () => {
    expect(() => decodeDnsName('0x0474657374036574680000')).toThrow(DnsNameError); // bytes after the end
    expect(() => decodeDnsName('0x047465737403657468')).toThrow(DnsNameError); // no terminator
    expect(() => decodeDnsName('0x09746573740365746800')).toThrow(DnsNameError); // label past the end
    expect(() => decodeDnsName('0x02fffe00')).toThrow(DnsNameError); // not UTF-8
    expect(() => decodeDnsName('0x03612e6200')).toThrow(DnsNameError); // "a.b" as one label
    expect(() => decodeDnsName('0x00')).toThrow(DnsNameError);
  });

  it('unset records answer as a resolver does: zero address, empty bytes, empty string; inherited keys are not records', () => {
    const empty = { addresses: {}, texts: {} };
    expect(recordResult({ kind: 'addr' }, null)).toBe(`0x${'0'.repeat(64)}`);
    expect(recordResult({ kind: 'text', key: 'constructor' }, empty)).toBe(
      recordResult({ kind: 'text', key: 'missing' }, null),
    );
    expect(recordResult({ kind: 'contenthash' }, empty)).toBe(
      recordResult({ kind: 'addrByCoin', coinType: 0n }, empty),
    );
  });
});
