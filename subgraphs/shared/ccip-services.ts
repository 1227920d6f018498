/**
 * What the ccip subgraph asks of the server (SPEC "CCIP gateway (ERC-3668)", "Subnames"): implemented in
 * src/ccip/ccip-services.ts over the store, reached through `GraphContext.app.ccip`.
 */
import type { CallerIdentity } from './account-services.js';

/** SPEC "CCIP answer": `data` is what ERC-3668 clients pass to the resolver's callback. */
export interface CcipAnswerShape {
  /** abi.encode(bytes result, uint64 expires, bytes sig), as ENS's OffchainResolver `resolveWithProof` decodes it. */
  data: string;
  /** The 65-byte signature inside `data`. */
  signature: string;
  /** The `expires` inside `data`, Unix seconds. */
  validUntil: number;
}

export interface CcipHealthShape {
  status: string;
  /** Subnames stored, under every parent. */
  recordCount: number;
  /** Where the records live: the SQLite file, or the Redis URL without its password. */
  dbPath: string;
  timestamp: string;
  /** Address whose signatures the gateway's answers carry: an OffchainResolver must list it as a signer. */
  signer: string;
  /** Parent names whose subnames the gateway serves. */
  parents: string[];
  answerTtlSeconds: number;
}

export interface SubnameRecordsShape {
  /** Address per coin type (decimal SLIP-44 / ENSIP-11: "60" is ETH). */
  addresses: { coinType: string; address: string }[];
  texts: { key: string; value: string }[];
  /** ENSIP-7 URI, e.g. ipfs://bafy… */
  contenthash: string | null;
}

export interface SubnameShape {
  name: string;
  parent: string;
  label: string;
  node: string;
  /** The wallet that registered it (EIP-55). */
  owner: string;
  records: SubnameRecordsShape;
  createdAt: string;
}

export interface SubnameRecordsInputShape {
  addresses?: { coinType: string; address: string }[] | null;
  texts?: { key: string; value: string }[] | null;
  contenthash?: string | null;
}

export interface CcipServices {
  /** Answers one CCIP-Read request of an OffchainResolver, signed. */
  answer(p: { sender: string; data: string }): Promise<CcipAnswerShape>;
  health(): Promise<CcipHealthShape>;
  /** A registered subname; null when the label is free. */
  subname(p: { parent: string; label: string }): Promise<SubnameShape | null>;
  /** Registers `label.parent` to the caller's signed-in wallet. */
  register(
    caller: CallerIdentity,
    p: { parent: string; label: string; records: SubnameRecordsInputShape },
  ): Promise<SubnameShape>;
}
