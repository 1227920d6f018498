import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * GraphQL Codegen: one TypeScript type per operation of examples/graphql/ (its variables and its result), checked
 * against the published schema. Run by examples/typed-client/generate.sh from the repository root.
 */
const config: CodegenConfig = {
  schema: 'schema/api.graphql',
  documents: 'examples/graphql/*.graphql',
  generates: {
    'examples/typed-client/generated/graphql.ts': {
      plugins: ['typescript', 'typescript-operations'],
      config: { onlyOperationTypes: true, enumsAsTypes: true, avoidOptionals: true },
    },
  },
};
export default config;
