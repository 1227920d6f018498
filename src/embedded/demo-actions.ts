import {
  type Address,
  createPublicClient,
  createWalletClient,
  formatEther,
  formatUnits,
  type Hex,
  http,
  isAddress,
  labelhash,
  namehash,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem';
import type { HDAccount } from 'viem/accounts';
import { normalize } from 'viem/ens';
import { localViemChain } from '../sources/rpc/viem-chains.js';
import { getDevAccounts } from './chain/dev-accounts.js';
import { DEMO_TOKENS, demoAssetAddresses } from './chain/seed-steps/demo-assets.js';
import { localEnsAddresses } from './chain/seed-steps/ens.js';
import { DEMO_MOVED_TOKEN_ID, type DemoActionName } from './demo-action-list.js';

/** What one demo action did: the transaction, and the webhook event it makes. */
export interface DemoActionResult {
  event: 'wallet.transfer' | 'wallet.nft_transfer' | 'ens.record_changed' | 'ens.transfer';
  transactionHash: Hex;
  blockNumber: bigint;
  /** One line for a person: what moved or changed, from whom to whom. */
  summary: string;
}

export interface DemoAction {
  name: DemoActionName;
  run(chain: DemoChain, args: readonly string[]): Promise<DemoActionResult>;
}

/** The embedded Ethereum chain, reached at its loopback JSON-RPC URL, as the demo actions use it. */
export interface DemoChain {
  rpcUrl: string;
}

export class DemoActionError extends Error {
  override name = 'DemoActionError';
}

const erc20Abi = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
const erc721Abi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function transferFrom(address from, address to, uint256 tokenId)',
]);
const registryAbi = parseAbi([
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
]);
const textAbi = parseAbi(['function setText(bytes32 node, string key, string value)']);

/** Dev accounts the actions send from and to by default: alice (1, alice.eth's owner) and bob (2, bob.eth's). */
const ALICE = 1;
const BOB = 2;
const MOVED_TOKEN_ID = DEMO_MOVED_TOKEN_ID;

function clients(chain: DemoChain) {
  const viemChain = localViemChain({ chainId: 1, rpcUrl: chain.rpcUrl });
  // No retries toward the local chain: viem would retry a revert for seconds.
  const transport = http(chain.rpcUrl, { retryCount: 0 });
  return {
    client: createPublicClient({ chain: viemChain, transport }),
    wallet: createWalletClient({ chain: viemChain, transport }),
  };
}

/** A dev account by address, or an error naming the action's need (the chain only lets dev accounts sign here). */
function devAccount(address: Address, what: string): HDAccount {
  const account = getDevAccounts().find((a) => a.address.toLowerCase() === address.toLowerCase());
  if (!account)
    throw new DemoActionError(`${what} is ${address}, not one of anvil's dev accounts: the demo cannot sign`);
  return account;
}

/** `0x…` as given, or an ENS name resolved on the chain (ENS sits at its mainnet addresses there). */
async function recipient(chain: DemoChain, given: string | undefined, fallback: Address): Promise<Address> {
  if (given === undefined) return fallback;
  if (isAddress(given)) return given;
  const address = await clients(chain).client.getEnsAddress({ name: normalize(given) });
  if (!address) throw new DemoActionError(`${given} does not resolve to an address on the embedded chain`);
  return address;
}

/** The other of alice and bob: where a thing goes back and forth by default. */
const otherOf = (holder: Address): Address =>
  getDevAccounts()[holder === getDevAccounts()[BOB]!.address ? ALICE : BOB]!.address;

/** One contract call signed by a dev account, as the actions send it. */
interface DemoCall {
  address: Address;
  abi: readonly unknown[];
  functionName: string;
  args: readonly unknown[];
}

/** Sends ETH (`value`) or a contract call as `account` and waits for it to be mined; a revert is an error. */
async function send(
  chain: DemoChain,
  account: HDAccount,
  request: { to: Address; value: bigint } | DemoCall,
): Promise<{ transactionHash: Hex; blockNumber: bigint }> {
  const { client, wallet } = clients(chain);
  const hash =
    'abi' in request
      ? await wallet.writeContract({ ...request, account } as Parameters<typeof wallet.writeContract>[0])
      : await wallet.sendTransaction({ ...request, account, chain: wallet.chain });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== 'success') throw new DemoActionError(`transaction ${hash} reverted`);
  return { transactionHash: hash, blockNumber: receipt.blockNumber };
}

const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** The transactions behind each webhook event family, sent on the embedded Ethereum chain from anvil's dev accounts. */
export const DEMO_ACTIONS: readonly DemoAction[] = [
  {
    name: 'eth',
    async run(chain, [to, amount = '0.01']) {
      const from = getDevAccounts()[ALICE]!;
      const target = await recipient(chain, to, getDevAccounts()[BOB]!.address);
      const sent = await send(chain, from, { to: target, value: parseEther(amount) });
      return {
        event: 'wallet.transfer',
        ...sent,
        summary: `${amount} ETH from ${short(from.address)} to ${short(target)}`,
      };
    },
  },
  {
    name: 'erc20',
    async run(chain, [to, amount = '1']) {
      const from = getDevAccounts()[ALICE]!;
      const target = await recipient(chain, to, getDevAccounts()[BOB]!.address);
      const usdc = DEMO_TOKENS.find((t) => t.symbol === 'USDC')!;
      const token = demoAssetAddresses().tokens.USDC!;
      const sent = await send(chain, from, {
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [target, parseUnits(amount, usdc.decimals)],
      });
      return {
        event: 'wallet.transfer',
        ...sent,
        summary: `${amount} USDC (${token}) from ${short(from.address)} to ${short(target)}`,
      };
    },
  },
  {
    name: 'nft',
    async run(chain, [to]) {
      const { client } = clients(chain);
      const collectible = demoAssetAddresses().collectible;
      const holder = await client.readContract({
        address: collectible,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [MOVED_TOKEN_ID],
      });
      const target = await recipient(chain, to, otherOf(holder));
      const sent = await send(chain, devAccount(holder, `the holder of #${MOVED_TOKEN_ID}`), {
        address: collectible,
        abi: erc721Abi,
        functionName: 'transferFrom',
        args: [holder, target, MOVED_TOKEN_ID],
      });
      return {
        event: 'wallet.nft_transfer',
        ...sent,
        summary: `Demo Collectible #${MOVED_TOKEN_ID} (${collectible}) from ${short(holder)} to ${short(target)}`,
      };
    },
  },
  {
    name: 'text',
    async run(
      chain,
      [name = 'alice.eth', key = 'description', value = `set by npm run demo at ${new Date().toISOString()}`],
    ) {
      const { client } = clients(chain);
      const node = namehash(normalize(name));
      const registry = localEnsAddresses().registry;
      const [controller, resolver] = await Promise.all([
        client.readContract({ address: registry, abi: registryAbi, functionName: 'owner', args: [node] }),
        client.readContract({ address: registry, abi: registryAbi, functionName: 'resolver', args: [node] }),
      ]);
      if (/^0x0{40}$/.test(resolver)) throw new DemoActionError(`${name} has no resolver on the embedded chain`);
      const sent = await send(chain, devAccount(controller, `${name}'s controller`), {
        address: resolver,
        abi: textAbi,
        functionName: 'setText',
        args: [node, key, value],
      });
      return { event: 'ens.record_changed', ...sent, summary: `${name} text ${key} = ${JSON.stringify(value)}` };
    },
  },
  {
    name: 'transfer-name',
    async run(chain, [name = 'carol.eth', to]) {
      const labels = normalize(name).split('.');
      if (labels.length !== 2 || labels[1] !== 'eth')
        throw new DemoActionError(`${name} is not a second-level .eth name`);
      const { client } = clients(chain);
      const registrar = localEnsAddresses().ethRegistrar;
      const tokenId = BigInt(labelhash(labels[0]!));
      const holder = await client
        .readContract({ address: registrar, abi: erc721Abi, functionName: 'ownerOf', args: [tokenId] })
        .catch(() => {
          throw new DemoActionError(`${name} is not registered (or has expired) on the embedded chain`);
        });
      const target = await recipient(chain, to, otherOf(holder));
      const sent = await send(chain, devAccount(holder, `${name}'s registrant`), {
        address: registrar,
        abi: erc721Abi,
        functionName: 'transferFrom',
        args: [holder, target, tokenId],
      });
      return {
        event: 'ens.transfer',
        ...sent,
        summary: `${name} registration from ${short(holder)} to ${short(target)}`,
      };
    },
  },
];

/**
 * Anvil's dev accounts as the demo knows them: address, ETH and demo USDC balances on the embedded Ethereum chain.
 * @example for (const row of await demoAccounts({ rpcUrl })) console.log(row)
 */
export async function demoAccounts(chain: DemoChain): Promise<string[]> {
  const { client } = clients(chain);
  const usdc = demoAssetAddresses().tokens.USDC!;
  return Promise.all(
    getDevAccounts().map(async (account, i) => {
      const [eth, usdcBalance, name] = await Promise.all([
        client.getBalance({ address: account.address }),
        client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] }),
        client.getEnsName({ address: account.address }).catch(() => null),
      ]);
      const ethShown = Number(formatEther(eth)).toFixed(4);
      return `#${i} ${account.address}  ${ethShown.padStart(14)} ETH  ${formatUnits(usdcBalance, 6).padStart(10)} USDC  ${name ?? ''}`.trimEnd();
    }),
  );
}
