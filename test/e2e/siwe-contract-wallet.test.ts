import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  hashMessage,
  http,
  type PublicClient,
  serializeErc6492Signature,
  type WalletClient,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type ContractArtifact, loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { localViemChain } from '../../src/sources/rpc/viem-chains.js';
import { bearer, getChallenge, messageFor, newWallet } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** EIP-1271's answer for a valid signature: `bytes4(keccak256("isValidSignature(bytes32,bytes)"))`. */
const EIP1271_MAGIC = '0x1626ba7e';

describe('SIWE sign-in with a contract wallet (EIP-1271, ERC-6492) checked on the embedded chain', () => {
  let server: TestServer;
  let chain: PublicClient;
  let deployer: WalletClient;
  let wallet: ContractArtifact;
  let factory: ContractArtifact;

  /** Deploys a contract from a dev account not used by the seed's deployer or the local facilitator. */
  async function deploy(artifact: ContractArtifact, args: readonly unknown[] = []): Promise<Address> {
    const hash = await deployer.deployContract({
      account: getDevAccounts()[9]!,
      chain: deployer.chain,
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
    });
    const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('success');
    return getAddress(receipt.contractAddress!);
  }

  /** A wallet app signing in as `address` with `signer`'s key: challenge, EIP-4361 message, personal_sign, verify. */
  async function signInAs(address: Address, signer: PrivateKeyAccount, wrap: (signature: Hex) => Hex = (s) => s) {
    const message = messageFor(signer, await getChallenge(server), { address });
    const signature = wrap(await signer.signMessage({ message }));
    const res = await server.post('/api/auth/siwe/verify', { message, signature });
    return { res, message, signature };
  }

  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '100000', ANONYMOUS_PER_MINUTE_LIMIT: '100000' });
    const rpcUrl = server.localChain!.rpcUrl;
    const transport = http(rpcUrl, { retryCount: 0 });
    chain = createPublicClient({ chain: localViemChain({ rpcUrl }), transport });
    deployer = createWalletClient({ chain: localViemChain({ rpcUrl }), transport });
    wallet = loadContractArtifact('Eip1271OwnerWallet');
    factory = loadContractArtifact('Eip1271OwnerWalletFactory');
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a deployed wallet signs in with its owner's signature: the session is the contract's address", async () => {
    const owner = newWallet();
    const contract = await deploy(wallet, [owner.address]);

    const { res, message, signature } = await signInAs(contract, owner);
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(session).toMatchObject({ success: true, address: contract });
    expect(session.token.split('.')).toHaveLength(3);

    const status = await server.get('/api/auth/session', bearer(session.token));
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ authenticated: true, address: contract, tier: 'siwe' });

    // What viem's verifyMessage asks the wallet: isValidSignature(EIP-191 hash of the message, the signature as sent).
    const answer = await chain.readContract({
      address: contract,
      abi: wallet.abi,
      functionName: 'isValidSignature',
      args: [hashMessage(message), signature],
    });
    expect(answer).toBe(EIP1271_MAGIC);
  });

  it('the same sign-in signed by a key that is not the owner is INVALID_SIGNATURE (401)', async () => {
    const owner = newWallet();
    const contract = await deploy(wallet, [owner.address]);

    const { res } = await signInAs(contract, newWallet());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_SIGNATURE' });
  });

  it('a wallet not deployed yet signs in with an ERC-6492 signature naming its factory, and stays undeployed', async () => {
    const owner = newWallet();
    const walletFactory = await deploy(factory);
    const salt = `0x${'42'.repeat(32)}` as const;
    const counterfactual = (await chain.readContract({
      address: walletFactory,
      abi: factory.abi,
      functionName: 'walletAddress',
      args: [owner.address, salt],
    })) as Address;
    expect(await chain.getCode({ address: counterfactual })).toBeUndefined();

    const factoryData = encodeFunctionData({
      abi: factory.abi,
      functionName: 'createWallet',
      args: [owner.address, salt],
    });
    const wrap = (signature: Hex) =>
      serializeErc6492Signature({ address: walletFactory, data: factoryData, signature });
    const { res } = await signInAs(counterfactual, owner, wrap);
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(session).toMatchObject({ success: true, address: counterfactual });
    expect(await (await server.get('/api/auth/session', bearer(session.token))).json()).toMatchObject({
      authenticated: true,
      address: counterfactual,
    });
    // The check deployed the wallet only inside an eth_call.
    expect(await chain.getCode({ address: counterfactual })).toBeUndefined();

    const byStranger = await signInAs(counterfactual, newWallet(), wrap);
    expect(byStranger.res.status).toBe(401);
    expect((await byStranger.res.json()).code).toBe('INVALID_SIGNATURE');
  });
});
