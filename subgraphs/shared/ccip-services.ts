/**
 * What the ccip subgraph asks of the server (docs/api-contract.md#ccip-gateway, docs/api-contract.md#identity):
 * implemented in
 * src/ccip/ccip-services.ts over the store, reached through `GraphContext.app.ccip`.
 */
import type { AskedAt } from '../../src/sources/rpc/asked-at.js';
import type { CcipAnswer, CcipHealth, Subname, SubnameRecordsInput } from '../ccip/types.js';
import type { CallerIdentity } from './account-services.js';

export interface CcipServices {
  /**
   * Answers one CCIP-Read request of an OffchainResolver, signed. `askedAt`: when the request arrived, for the chain
   * reads a chain-served parent makes (src/sources/rpc/block-reads.ts).
   */
  answer(p: { sender: string; data: string; askedAt?: AskedAt | undefined }): Promise<CcipAnswer>;
  health(): Promise<CcipHealth>;
  /**
   * The owner of a subname registered here (`dave.offchain.eth`), lowercase; null for any other name (a free label,
   * a parent this gateway does not serve). ENS profiles show it as the subname's registrant.
   */
  subnameOwner(name: string): Promise<string | null>;
  /** A registered subname; null when the label is free. Parent and label are parsed here, as sent. */
  subname(p: { parent: string; label: string }): Promise<Subname | null>;
  /**
   * Registers `label.parent` to the caller's signed-in wallet. The arguments are parsed here, as sent, before
   * `caller` is asked who calls: a bad argument is a 400 whoever calls.
   */
  register(
    caller: () => Promise<CallerIdentity>,
    p: { parent: string; label: string; records: SubnameRecordsInput },
  ): Promise<Subname>;
}
