/**
 * What the ccip subgraph asks of the server (SPEC "CCIP gateway (ERC-3668)", "Subnames"): implemented in
 * src/ccip/ccip-services.ts over the store, reached through `GraphContext.app.ccip`.
 */
import type { CcipAnswer, CcipHealth, Subname, SubnameRecordsInput } from '../ccip/types.js';
import type { CallerIdentity } from './account-services.js';

export interface CcipServices {
  /** Answers one CCIP-Read request of an OffchainResolver, signed. */
  answer(p: { sender: string; data: string }): Promise<CcipAnswer>;
  health(): Promise<CcipHealth>;
  /** A registered subname; null when the label is free. */
  subname(p: { parent: string; label: string }): Promise<Subname | null>;
  /** Registers `label.parent` to the caller's signed-in wallet. */
  register(
    caller: CallerIdentity,
    p: { parent: string; label: string; records: SubnameRecordsInput },
  ): Promise<Subname>;
}
