import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../config/project-root.js';

/** The example operations GraphiQL opens with, one tab each, in this order: examples/graphql/<name>.graphql. */
export const GRAPHIQL_EXAMPLES = ['profile-wallet-farcaster', 'name-and-price', 'prices', 'farcaster-wallets'] as const;

/** Where an example operation's file is. */
export const graphqlExamplePath = (name: string): string =>
  join(projectRoot(), 'examples', 'graphql', `${name}.graphql`);

/**
 * GraphiQL's first tabs: the checked-in example operations (the examples test runs each one), so the page and the
 * guides show the same queries.
 * @example renderGraphiqlPage({ tabs: graphiqlTabs() })
 */
export function graphiqlTabs(): { query: string }[] {
  return GRAPHIQL_EXAMPLES.map((name) => ({ query: readFileSync(graphqlExamplePath(name), 'utf8') }));
}
