import { JsonRpcProvider } from 'ethers';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signInWithEthereum } from '../auth/sign-in.js';
import { type Example, embeddedRpcUrl, json } from '../example.js';

/**
 * A signed-in wallet registers a free label under offchain.eth; ENS clients resolve it at once, through the
 * parent's OffchainResolver and this server's CCIP-Read gateway. Run: npm run example -- ens/register-subname
 */
export default async function registerSubname({ api, print }: Example): Promise<void> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const session = await signInWithEthereum(api, wallet);
  const label = `guest${Date.now().toString(36)}`;
  const subname = await json<{ name: string; owner: string }>(
    await fetch(`${api}/api/subnames/offchain.eth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label, records: { texts: { url: 'https://guest.example.org' } } }),
    }),
  );
  print(`registered ${subname.name} to ${subname.owner}`);

  const provider = new JsonRpcProvider(await embeddedRpcUrl(api));
  try {
    // Without an address record the name resolves to its owner.
    print(`ethers: ${subname.name} → ${await provider.resolveName(subname.name)}`);
    print(`ethers: url = ${await (await provider.getResolver(subname.name))?.getText('url')}`);
  } finally {
    provider.destroy();
  }
}
