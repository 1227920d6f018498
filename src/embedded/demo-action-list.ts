/** The Demo Collectible token the nft action moves between its holders (#1 stays with alice). */
export const DEMO_MOVED_TOKEN_ID = 3n;

/** The `npm run demo` actions as `--help` lists them (light: the CLI answers --help before viem loads). */
export const DEMO_ACTION_LIST = [
  {
    name: 'eth',
    usage: 'eth [to] [amount]',
    description: 'alice sends ETH (default 0.01) to an address or name (default bob.eth): wallet.transfer',
  },
  {
    name: 'erc20',
    usage: 'erc20 [to] [amount]',
    description: 'alice sends demo USDC (default 1) to an address or name (default bob.eth): wallet.transfer',
  },
  {
    name: 'nft',
    usage: 'nft [to]',
    description: `moves Demo Collectible #${DEMO_MOVED_TOKEN_ID} from its holder to an address or name (default: the other of alice and bob): wallet.nft_transfer`,
  },
  {
    name: 'text',
    usage: 'text [name] [key] [value]',
    description:
      "sets a text record of a name its dev account controls (default: alice.eth's description, to the time now): ens.record_changed",
  },
  {
    name: 'transfer-name',
    usage: 'transfer-name [name] [to]',
    description:
      "hands a .eth name's registration to an address or name (default: carol.eth, to the other of alice and bob): ens.transfer",
  },
] as const;

export type DemoActionName = (typeof DEMO_ACTION_LIST)[number]['name'];

/** The demo's commands that send no transaction: listed after the actions. */
export const DEMO_COMMANDS = [
  { name: 'accounts', description: 'the dev accounts: address, ETH, demo USDC, primary name' },
  {
    name: 'api-key',
    description:
      'signs in with Ethereum as alice and prints a demo API key once, as an `export API_KEY=…` line (embedded default only)',
  },
] as const;
