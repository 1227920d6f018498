import { normalize } from 'viem/ens';
import { z } from 'zod';
import { type ConfigArea, optional, type SettingsOf, withDefault } from './config-variable.js';

/** The parent the embedded default serves CCIP subnames under when CCIP_PARENT_NAMES is unset (already normalised). */
export const DEFAULT_CCIP_PARENT_NAMES: readonly string[] = ['offchain.eth'];

/** Comma-separated ENS names in ENSIP-15 normal form, each of two labels or more (`offchain.eth`). */
function ccipParentNames(value: string, ctx: z.RefinementCtx): string[] {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
    ),
  ];
  for (const name of names) {
    let normalised: string | undefined;
    try {
      normalised = normalize(name);
    } catch {
      normalised = undefined;
    }
    if (normalised !== name || name.split('.').length < 2 || name.split('.').includes('')) {
      ctx.addIssue({
        code: 'custom',
        message: `"${name}" is not an ENS name in normal form with two labels or more`,
      });
    }
  }
  if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one parent' });
  return names;
}

/** The CCIP-Read gateway (ERC-3668) and the subnames it serves. */
export const CCIP_AREA = {
  title: 'CCIP-Read gateway',
  about: 'The CCIP-Read gateway (ERC-3668) and the subnames it serves',
  variables: {
    CCIP_SIGNER_KEY: optional(
      z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key'),
      "private key the CCIP gateway signs answers with (never logged; its address is in `/ccip/health`); required when any part is live, else generated once and shared by every instance on the store; anvil's public keys are always refused",
      { unset: 'generated, kept in the store (embedded default only)', secret: true },
    ),
    // Unset is not parsed: ENSIP-15's tables take ~0.5 s to build, and the default is written in normal form.
    CCIP_PARENT_NAMES: optional(
      z.string().transform((v, ctx) => ccipParentNames(v, ctx)),
      'comma-separated parents whose subnames the gateway serves (on the embedded chain each must be an unregistered `NAME.eth`: it is registered with OffchainResolver pointing at this server)',
      { unset: `\`${DEFAULT_CCIP_PARENT_NAMES.join(',')}\`` },
    ),
    CCIP_ANSWER_TTL_SECONDS: withDefault(
      '300',
      z.coerce.number().int().min(10).max(86_400),
      'how long a signed CCIP answer is valid (`validUntil`)',
    ),
  },
} as const satisfies ConfigArea;

export interface CcipConfig {
  /** CCIP-Read gateway (docs/api-contract.md#ccip-gateway) and the subnames it serves. */
  ccip: {
    /** Signs gateway answers; undefined: one generated once and kept in the store. Never logged. */
    signerKey: `0x${string}` | undefined;
    /** Parents whose subnames are registered here and answered by the gateway. */
    parentNames: string[];
    /** Seconds a signed answer stays valid (its `validUntil`). */
    answerTtlSeconds: number;
  };
}

export function ccipConfig(e: SettingsOf<typeof CCIP_AREA.variables>): CcipConfig {
  return {
    ccip: {
      signerKey: e.CCIP_SIGNER_KEY as `0x${string}` | undefined,
      parentNames: e.CCIP_PARENT_NAMES ?? [...DEFAULT_CCIP_PARENT_NAMES],
      answerTtlSeconds: e.CCIP_ANSWER_TTL_SECONDS,
    },
  };
}
