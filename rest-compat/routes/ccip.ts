import 'reflect-metadata';
import { z } from 'zod';
import {
  CCIP_EXAMPLE_CALLDATA,
  CCIP_EXAMPLE_SENDER,
  ccipCalldata,
  ccipSender,
} from '../../src/arguments/ccip-arguments.js';
import { ensName } from '../../src/arguments/ens-name.js';
import {
  type SubnameRecordsArgument,
  subnameLabelArgument,
  subnameRecordsArgument,
} from '../../src/arguments/subname-arguments.js';
import { CcipResolver } from '../../subgraphs/ccip/resolvers.js';
import { entriesAsMap, shapes } from '../response-shape.js';
import { rootField } from '../root-field.js';
import type { OperationRow, RouteInput, RouteRow } from '../route-row.js';

/** A parent name in ENSIP-15 normal form. */
const parentName = ensName
  .describe('a parent name this server serves (GET /ccip/health lists them), e.g. offchain.eth')
  .meta({ example: 'offchain.eth' });

const EXAMPLE_RECORDS = {
  addresses: { '60': '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  texts: { url: 'https://heidi.example.org', 'com.github': 'heidi' },
  contenthash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
};

/** REST maps → the GraphQL input's lists. */
function recordsInput(body: SubnameRecordsArgument | undefined): Record<string, unknown> {
  return {
    addresses: Object.entries(body?.addresses ?? {}).map(([coinType, address]) => ({ coinType, address })),
    texts: Object.entries(body?.texts ?? {}).map(([key, value]) => ({ key, value })),
    contenthash: body?.contenthash ?? null,
  };
}

/** GraphQL's record lists → the maps REST callers send and read. */
const subnameAsMaps = shapes(
  entriesAsMap(['records', 'addresses'], 'coinType', 'address'),
  entriesAsMap(['records', 'texts'], 'key', 'value'),
);

const SUBNAME_SELECTION =
  'name parent label node owner records { addresses { coinType address } texts { key value } contenthash } createdAt';
const WHO_MAY_REGISTER =
  'Any wallet signed in with SIWE (`Authorization: Bearer <token>`) may register a free label under a served parent (GET /ccip/health lists them); it becomes the owner. First come, first served: a label taken is 409 `CONFLICT`; records cannot be changed afterwards. Without addresses the name resolves to the owner. 401 without a session (API keys and x402 payments do not identify a wallet owner here), 404 for a parent not served.';

/** Both register rows run registerSubname; `name` is the row's operation name. */
const registerOperation = (name: string) =>
  `mutation ${name}($parent: String!, $label: String!, $records: SubnameRecordsInput) { registerSubname(parent: $parent, label: $label, records: $records) { ${SUBNAME_SELECTION} } }`;

const registerVariables = (parent: string, label: string, input: RouteInput) => ({
  parent,
  label,
  records: recordsInput(input.body.records as SubnameRecordsArgument | undefined),
});

const CCIP_DESCRIPTION =
  'Called by ERC-3668 clients (viem, ethers) when ENS’s OffchainResolver reverts with OffchainLookup. Decodes `resolve(bytes name, bytes data)` and answers addr(bytes32), addr(bytes32,uint256), text(bytes32,string) and contenthash(bytes32) for names under the served parents, from the subnames registered here (unset records answer empty). `data` is abi.encode(bytes result, uint64 expires, bytes sig), signed over keccak256(0x1900 ‖ sender ‖ expires ‖ keccak256(request) ‖ keccak256(result)); `signature` and `validUntil` repeat its parts. Free: resolvers call it on behalf of every end user and cannot carry keys or payments. 400 `CCIP_ERROR` for malformed calldata or a node that is not namehash(name), 404 for a name outside the served parents.';

/** The ERC-3668 lookup: the same `sender` and `data`, in the path of a GET or the body of a POST. */
const lookup = z.object({ sender: ccipSender, data: ccipCalldata });

/** A row of the lookup, GET or POST: free, answered by `ccipResolve` in the CCIP envelope. */
const lookupRow = (
  row: Pick<OperationRow, 'id' | 'tool' | 'method' | 'path' | 'summary' | 'description' | 'params'>,
): OperationRow => ({
  kind: 'operation',
  ...row,
  tag: 'CCIP',
  tier: 'free',
  envelope: 'ccip',
  field: rootField(CcipResolver.prototype.ccipResolve),
  errors: [400, 404, 500],
});

/** docs/api-contract.md#ccip-gateway and the subname paths of "Identity". */
export const ccipRoutes: RouteRow[] = [
  lookupRow({
    id: 'ccipResolve',
    tool: 'ccip_resolve',
    method: 'GET',
    path: '/ccip/{sender}/{data}.json',
    summary: 'Signed answer to an ENS OffchainResolver lookup (ERC-3668 GET)',
    description: CCIP_DESCRIPTION,
    params: { path: lookup },
  }),
  lookupRow({
    id: 'ccipResolvePost',
    tool: 'ccip_resolve_post',
    method: 'POST',
    path: '/ccip',
    summary: 'Signed answer to an ENS OffchainResolver lookup (ERC-3668 POST)',
    description: `${CCIP_DESCRIPTION} 400 \`INVALID_REQUEST\` when sender or data is missing.`,
    params: { body: lookup.meta({ example: { sender: CCIP_EXAMPLE_SENDER, data: CCIP_EXAMPLE_CALLDATA } }) },
  }),
  {
    kind: 'operation',
    id: 'getCcipHealth',
    tool: 'get_ccip_health',
    method: 'GET',
    path: '/ccip/health',
    tag: 'CCIP',
    summary: 'CCIP gateway health: record store, subname count, signer address, served parents',
    description:
      'Free. 503 `SERVICE_UNAVAILABLE` when the record store does not answer (down, hung or locked); 500 `CCIP_HEALTH_ERROR` when it fails otherwise.',
    tier: 'free',
    envelope: 'ccip',
    field: rootField(CcipResolver.prototype.ccipHealth),
    errors: [500],
  },
  {
    kind: 'operation',
    id: 'getSubname',
    tool: 'get_subname',
    method: 'GET',
    path: '/api/subnames/{parent_name}/{label}',
    tag: 'Subnames',
    summary: 'A subname served by the CCIP gateway: owner and records',
    description: '404 when the label is free or the parent is not served here.',
    tier: 'medium',
    params: { path: z.object({ parent_name: parentName, label: subnameLabelArgument }) },
    field: rootField(CcipResolver.prototype.subname),
    operation: `query getSubname($parent: String!, $label: String!) { subname(parent: $parent, label: $label) { ${SUBNAME_SELECTION} } }`,
    variables: (input) => ({ parent: input.path.parent_name, label: input.path.label }),
    shape: subnameAsMaps,
    errors: [404],
    notFound: 'no such subname',
  },
  {
    kind: 'operation',
    id: 'registerSubname',
    tool: 'register_subname',
    method: 'POST',
    path: '/api/subnames/{parent_name}',
    tag: 'Subnames',
    summary: 'Register label.parent_name to your signed-in wallet; it resolves through ENS at once (CCIP-Read)',
    description: WHO_MAY_REGISTER,
    tier: 'write',
    params: {
      path: z.object({ parent_name: parentName }),
      body: z
        .object({ label: subnameLabelArgument, records: subnameRecordsArgument.optional() })
        .meta({ example: { label: 'heidi', records: EXAMPLE_RECORDS } }),
    },
    field: rootField(CcipResolver.prototype.registerSubname),
    operation: registerOperation('registerSubname'),
    variables: (input) => registerVariables(input.path.parent_name as string, input.body.label as string, input),
    shape: subnameAsMaps,
    errors: [401, 404, 409],
    credentials: 'session',
  },
  {
    kind: 'operation',
    id: 'registerCcipName',
    tool: 'register_ccip_name',
    method: 'POST',
    path: '/api/ccip/register',
    tag: 'CCIP',
    summary:
      'Register a full name (label.parent) for the CCIP gateway to serve; same as POST /api/subnames/{parent_name}',
    description: WHO_MAY_REGISTER,
    tier: 'write',
    params: {
      body: z
        .object({
          name: z
            .string()
            .max(300)
            .regex(/^[^.]+\.[^.]+\..+$/, 'must be label.parent, e.g. dave.offchain.eth')
            .describe('the full name: one label under a served parent'),
          records: subnameRecordsArgument.optional(),
        })
        .meta({ example: { name: 'erin.offchain.eth', records: EXAMPLE_RECORDS } }),
    },
    field: rootField(CcipResolver.prototype.registerSubname),
    operation: registerOperation('registerCcipName'),
    variables: (input) => {
      const name = input.body.name as string;
      const dot = name.indexOf('.');
      return registerVariables(name.slice(dot + 1), name.slice(0, dot), input);
    },
    shape: subnameAsMaps,
    errors: [401, 404, 409],
    credentials: 'session',
  },
];
