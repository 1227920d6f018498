import { decodeFunctionData, type Hex, namehash, parseAbi } from 'viem';
import { DnsNameError, decodeDnsName } from './dns-name.js';

/** ENS's IResolverService: the call an OffchainResolver sends its gateway (selector 0x9061b923). */
export const resolverServiceAbi = parseAbi([
  'function resolve(bytes name, bytes data) view returns (bytes result, uint64 expires, bytes sig)',
]);

/** The resolver profiles the gateway answers (ENSIP-1, ENSIP-9, ENSIP-5, ENSIP-7, ENSIP-3 reverse names). */
export const recordProfileAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function name(bytes32 node) view returns (string)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
]);

/** The record one request asks for. */
export type RecordQuery =
  | { kind: 'addr' }
  | { kind: 'addrByCoin'; coinType: bigint }
  | { kind: 'text'; key: string }
  | { kind: 'contenthash' }
  | { kind: 'name' };

export interface ResolveRequest {
  /** The dotted name, as the DNS-encoded name spelt it. */
  name: string;
  node: Hex;
  query: RecordQuery;
}

/** A request the gateway cannot answer: malformed, inconsistent or asking for a record type it does not serve. */
export class ResolveRequestError extends Error {
  override name = 'ResolveRequestError';
}

/**
 * Reads the calldata an OffchainResolver put in its OffchainLookup: `resolve(bytes name, bytes data)` where `data` is
 * one of addr(bytes32) 0x3b3b57de, addr(bytes32,uint256) 0xf1cb7e06, text(bytes32,string) 0x59d1d43c,
 * contenthash(bytes32) 0xbc1c58d1, name(bytes32) 0x691f3431 (a reverse record). The inner call's node must be namehash(name), or the answer would be signed for a
 * name the caller did not ask about.
 * @example decodeResolveRequest(vector.request) // { name: 'test.eth', node: '0xeb4f…', query: { kind: 'addr' } }
 */
export function decodeResolveRequest(request: Hex): ResolveRequest {
  let name: string;
  let inner: Hex;
  try {
    const outer = decodeFunctionData({ abi: resolverServiceAbi, data: request });
    [, inner] = outer.args;
    name = decodeDnsName(outer.args[0]);
  } catch (err) {
    if (err instanceof DnsNameError) throw new ResolveRequestError(err.message);
    throw new ResolveRequestError('data is not resolve(bytes name, bytes data) calldata');
  }
  let call: ReturnType<typeof decodeFunctionData<typeof recordProfileAbi>>;
  try {
    call = decodeFunctionData({ abi: recordProfileAbi, data: inner });
  } catch {
    throw new ResolveRequestError(
      'unsupported record: only addr, addr(coinType), text, contenthash and name are served',
    );
  }
  const node = call.args[0];
  if (node.toLowerCase() !== namehash(name)) throw new ResolveRequestError(`node ${node} is not namehash(${name})`);
  return { name, node, query: recordQuery(call) };
}

function recordQuery(call: ReturnType<typeof decodeFunctionData<typeof recordProfileAbi>>): RecordQuery {
  switch (call.functionName) {
    case 'addr':
      return call.args.length === 2 ? { kind: 'addrByCoin', coinType: call.args[1] } : { kind: 'addr' };
    case 'text':
      return { kind: 'text', key: call.args[1] };
    case 'contenthash':
      return { kind: 'contenthash' };
    case 'name':
      return { kind: 'name' };
  }
}
