import { type Address, getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { z } from 'zod';
import type { Subname } from '../../subgraphs/ccip/types.js';
import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';
import type { CcipServices } from '../../subgraphs/shared/ccip-services.js';
import { ccipCalldata, ccipSender } from '../arguments/ccip-arguments.js';
import { ensName } from '../arguments/ens-name.js';
import { parseArgument } from '../arguments/parse-argument.js';
import { subnameLabelArgument, subnameRecordsArgument } from '../arguments/subname-arguments.js';
import type { AppConfig } from '../config/config.js';
import { ApiError, CcipGatewayError, notFound } from '../errors/api-error.js';
import type { Store, SubnameRecords } from '../store/store.js';
import { ccipRequestError } from './ccip-request-error.js';
import type { ChainServedParent } from './chain-served-parent.js';
import { recordResult } from './record-result.js';
import { decodeResolveRequest, ResolveRequestError } from './resolve-request.js';
import { signOffchainAnswer } from './sign-answer.js';
import { recordsAsMaps, subnameRecords, subnameShape } from './subname-records.js';

/** Store secret holding the generated signing key when CCIP_SIGNER_KEY is not set (shared by every instance). */
export const CCIP_SIGNER_SECRET = 'ccip-signer-key';

export interface CreateCcipServicesParameters {
  config: Pick<AppConfig, 'ccip'>;
  store: Pick<Store, 'getOrCreateSecret' | 'getSubname' | 'putSubname' | 'countSubnames' | 'ping' | 'describe'>;
  /** Parents whose names are answered from a chain's ENS records (the embedded default's base.eth), not the store. */
  chainParents?: readonly ChainServedParent[];
  /** Clock in ms (tests pin it). */
  now?: () => number;
}

const ccipError = (message: string) => new ApiError('CCIP_ERROR', message);

/** An argument of a CCIP request parsed with its REST rule; refused, it is CCIP_ERROR as on the REST route. */
function ccipArgument<T>(schema: z.ZodType<T>, name: string, value: string): T {
  try {
    return parseArgument(schema, name, value);
  } catch (err) {
    throw ccipRequestError(err);
  }
}

/**
 * A subname's parent and label parsed with the rules of their REST parameters: the one parse of both for REST rows
 * and GraphQL callers alike (the resolvers pass them through as sent).
 */
const subnameArguments = (names: { parent: string; label: string }) => ({
  parent: parseArgument(ensName, 'parent', names.parent),
  label: parseArgument(subnameLabelArgument, 'label', names.label),
});

/**
 * A failure of ours (the store), answered 500 with its code (docs/api-contract.md#errors); the cause stays in the log.
 */
function internal(code: 'CCIP_ERROR' | 'CCIP_HEALTH_ERROR', message: string, cause: unknown): ApiError {
  const error = code === 'CCIP_ERROR' ? new CcipGatewayError(message) : new ApiError('CCIP_HEALTH_ERROR', message);
  return Object.assign(error, { cause });
}

/** What the gateway's answers and health read: the served parents, the store, the signing key and the clock. */
interface CcipGateway {
  store: CreateCcipServicesParameters['store'];
  parentNames: readonly string[];
  chainParents: readonly ChainServedParent[];
  answerTtlSeconds: number;
  signerKey: Hex;
  signer: Address;
  now: () => number;
  /** The served parent a name falls under (itself or a descendant), or undefined. */
  parentOf: (name: string) => string | undefined;
}

/** The records of a subname registered in the store; null for the parent itself and names below a subname. */
async function storedRecords(gateway: CcipGateway, name: string, parent: string): Promise<SubnameRecords | null> {
  const label = name.slice(0, -(parent.length + 1));
  // The parent itself, and names below a subname, hold no records: the resolver answers them as unset.
  if (name === parent || label.includes('.')) return null;
  try {
    return (await gateway.store.getSubname({ parent, label }))?.records ?? null;
  } catch (err) {
    throw internal('CCIP_ERROR', 'CCIP gateway internal error: the record store failed', err);
  }
}

/**
 * The signed answer to an OffchainResolver's resolve(name, data): the records of a name under a served parent (from
 * the store, or from the chain for a chain-served parent), valid for the configured TTL.
 */
async function gatewayAnswer(
  gateway: CcipGateway,
  { sender, data, askedAt }: Parameters<CcipServices['answer']>[0],
): Promise<{ data: Hex; signature: Hex; validUntil: number }> {
  const { parentNames } = gateway;
  const resolver = getAddress(ccipArgument(ccipSender, 'sender', sender));
  // The rule checked `0x` and whole bytes of hex: the text is viem's Hex as it is.
  const calldata = ccipArgument(ccipCalldata, 'data', data) as Hex;
  let request: ReturnType<typeof decodeResolveRequest>;
  try {
    request = decodeResolveRequest(calldata);
  } catch (err) {
    if (err instanceof ResolveRequestError) throw ccipError(err.message);
    throw err;
  }
  const parent = gateway.parentOf(request.name);
  const chainParent = gateway.chainParents.find(
    ({ parent: served }) => request.name === served || request.name.endsWith(`.${served}`),
  );
  if (parent === undefined && chainParent === undefined)
    throw notFound(`${request.name} is not under a name this gateway serves (${parentNames.join(', ')})`);
  const records =
    parent !== undefined
      ? await storedRecords(gateway, request.name, parent)
      : await chainParent!.records(request.name, request.query, askedAt);
  const result = recordResult(request.query, records);
  const validUntil = Math.floor(gateway.now() / 1000) + gateway.answerTtlSeconds;
  const signed = await signOffchainAnswer(
    { resolver, expires: BigInt(validUntil), request: calldata, result },
    gateway.signerKey,
  );
  return { data: signed.data, signature: signed.signature, validUntil };
}

/** The gateway's health: the record store answers, how many subnames it holds, who signs and for how long. */
async function gatewayHealth(gateway: CcipGateway): ReturnType<CcipServices['health']> {
  let recordCount: number;
  try {
    await gateway.store.ping();
    recordCount = await gateway.store.countSubnames();
  } catch (err) {
    // A store outage (down, hung, locked) is the 503 every route answers for it; anything else is the gateway's 500.
    if (err instanceof ApiError && err.code === 'SERVICE_UNAVAILABLE') {
      throw new ApiError('SERVICE_UNAVAILABLE', 'CCIP health check failed: the record store does not answer');
    }
    throw internal('CCIP_HEALTH_ERROR', 'CCIP health check failed: the record store failed', err);
  }
  return {
    status: 'ok',
    recordCount,
    // The contract's field (docs/api-contract.md#other-shapes), naming the store's kind: a file path or a Redis
    // host tells a caller nothing it should know.
    dbPath: gateway.store.describe().kind,
    timestamp: new Date(gateway.now()).toISOString(),
    signer: gateway.signer,
    parents: [...gateway.parentNames],
    answerTtlSeconds: gateway.answerTtlSeconds,
  };
}

/**
 * The CCIP-Read gateway and the subname registry over the store: answers OffchainResolver requests from the subnames
 * registered under the configured parents, signed with CCIP_SIGNER_KEY (or a key generated once and kept in the
 * store, so that every instance sharing the store signs alike).
 * @example const ccip = await createCcipServices({ config, store }); await ccip.answer({ sender, data })
 */
export async function createCcipServices(p: CreateCcipServicesParameters): Promise<CcipServices & { signer: Address }> {
  const { parentNames, answerTtlSeconds } = p.config.ccip;
  const now = p.now ?? Date.now;
  const signerKey = (p.config.ccip.signerKey ??
    (await p.store.getOrCreateSecret(CCIP_SIGNER_SECRET, () => generatePrivateKey()))) as Hex;
  const signer = privateKeyToAccount(signerKey).address;

  /** The served parent `name` falls under (itself or a descendant), or undefined. */
  const parentOf = (name: string) => parentNames.find((parent) => name === parent || name.endsWith(`.${parent}`));

  /** `parent` (already parsed) when this gateway serves it, else NOT_FOUND. */
  function served(parent: string): string {
    if (!parentNames.includes(parent))
      throw notFound(`${parent} is not served here; subnames are offered under ${parentNames.join(', ')}`);
    return parent;
  }

  const gateway: CcipGateway = {
    store: p.store,
    parentNames,
    chainParents: p.chainParents ?? [],
    answerTtlSeconds,
    signerKey,
    signer,
    now,
    parentOf,
  };

  return {
    signer,

    answer: (request) => gatewayAnswer(gateway, request),

    health: () => gatewayHealth(gateway),

    async subnameOwner(name) {
      const parent = parentOf(name);
      const label = parent === undefined ? '' : name.slice(0, -(parent.length + 1));
      if (parent === undefined || label === '' || label.includes('.')) return null;
      return (await p.store.getSubname({ parent, label }))?.owner ?? null;
    },

    async subname(names) {
      const { parent, label } = subnameArguments(names);
      const record = await p.store.getSubname({ parent: served(parent), label });
      return record ? subnameShape(record) : null;
    },

    async register(identify: () => Promise<CallerIdentity>, { records, ...names }): Promise<Subname> {
      // The arguments before the caller, as the REST rows check their body before who calls.
      const { parent, label } = subnameArguments(names);
      const recordsArgument = parseArgument(subnameRecordsArgument, 'records', recordsAsMaps(records));
      const caller = await identify();
      if (caller.mode !== 'siwe' || !caller.wallet) {
        throw new ApiError(
          'UNAUTHORIZED',
          'registering a subname needs a SIWE session: send Authorization: Bearer <token>',
        );
      }
      const record = {
        parent: served(parent),
        label,
        owner: caller.wallet.toLowerCase(),
        records: subnameRecords(recordsArgument, caller.wallet),
        createdAt: now(),
      };
      if (!(await p.store.putSubname(record))) {
        throw new ApiError('CONFLICT', `${record.label}.${record.parent} is already registered`);
      }
      return subnameShape(record);
    },
  };
}
