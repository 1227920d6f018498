import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Address } from 'viem';
import { projectRoot } from '../../config/project-root.js';
import type { EmbeddedChainName, EmbeddedChainPlan } from './embedded-chain-plans.js';
import { type LocalChainLogger, startLocalChain } from './local-chain.js';
import { seedLocalChain } from './seed-local-chain.js';

/** A chain's seeded state as anvil dumped it, and the contract addresses its seed steps recorded. */
export interface ChainSnapshot {
  /** anvil's state file, for `--load-state`. */
  statePath: string;
  deployments: ReadonlyMap<string, Address>;
}

interface SnapshotMeta {
  fingerprint: string;
  chainId: number;
  deployments: Record<string, Address>;
}

export class ChainSnapshotError extends Error {
  override name = 'ChainSnapshotError';
}

/** The plans' seed code: its own file and every project file it imports, directly or not, fingerprint a snapshot. */
const PLAN_SOURCE = 'src/embedded/chain/embedded-chain-plans.ts';
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** `<project root>/generated/chain-state`: written by `npm run build` and by the tests' global setup, never checked in. */
export function chainSnapshotDir(): string {
  return join(projectRoot(), 'generated', 'chain-state');
}

/**
 * What a snapshot of `plan` is made from: the seed code (PLAN_SOURCE and its project imports, read as TypeScript
 * source), the compiled contracts it deploys, and package-lock.json (anvil's version, ENS's published contracts).
 * Undefined when the sources are not there (a deployment of dist/ alone): the snapshot the build wrote is then taken as is.
 */
export function snapshotFingerprint(plan: EmbeddedChainPlan): string | undefined {
  // The bundle runs the seed code it was built from: its fingerprint is the one the build computed (reading the
  // sources, contracts and lockfile again took ~15 ms of every start).
  if (typeof __BUILT_SNAPSHOT_FINGERPRINTS__ !== 'undefined') return __BUILT_SNAPSHOT_FINGERPRINTS__[plan.name];
  // Once per process and chain: the sources do not change under a running server (the tests start dozens).
  if (!fingerprints.has(plan.name)) fingerprints.set(plan.name, computeFingerprint(plan));
  return fingerprints.get(plan.name);
}

/**
 * Each plan's fingerprint as scripts/bundle-server.mjs computed it from the sources the bundle is made of (right after
 * the build wrote the snapshots from them); undefined where the code runs unbundled (tsc's output, the tests).
 */
declare const __BUILT_SNAPSHOT_FINGERPRINTS__: Partial<Record<EmbeddedChainName, string>> | undefined;

const fingerprints = new Map<string, string | undefined>();

function computeFingerprint(plan: EmbeddedChainPlan): string | undefined {
  const root = projectRoot();
  if (!existsSync(join(root, PLAN_SOURCE))) return undefined;
  const hash = createHash('sha256').update(`${plan.name}:${plan.chainId}\n`);
  const seen = new Set<string>();
  const queue = [PLAN_SOURCE];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(join(root, file), 'utf8');
    hash.update(`${file}\n`).update(source);
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      const target = normalize(join(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
      if (existsSync(join(root, target))) queue.push(target);
    }
  }
  const artifactsDir = join(root, 'generated', 'contracts');
  const artifacts = existsSync(artifactsDir) ? readdirSync(artifactsDir).filter((f) => f.endsWith('.json')) : [];
  for (const artifact of artifacts.sort()) {
    hash.update(`${artifact}\n`).update(readFileSync(join(artifactsDir, artifact)));
  }
  const lockfile = join(root, 'package-lock.json');
  if (existsSync(lockfile)) hash.update(readFileSync(lockfile));
  return hash.digest('hex');
}

const metaPath = (plan: EmbeddedChainPlan) => join(chainSnapshotDir(), `${plan.name}.json`);
const statePath = (plan: EmbeddedChainPlan) => join(chainSnapshotDir(), `${plan.name}.state.json`);

/**
 * The snapshot of `plan` when one was written from the current seed code (see snapshotFingerprint); undefined when
 * there is none or it is stale, and the chain must be seeded on start.
 * @example const snapshot = readChainSnapshot(EMBEDDED_CHAIN_PLANS.ethereum)
 */
export function readChainSnapshot(
  plan: EmbeddedChainPlan,
  fingerprint: string | undefined = snapshotFingerprint(plan),
): ChainSnapshot | undefined {
  let meta: SnapshotMeta;
  try {
    meta = JSON.parse(readFileSync(metaPath(plan), 'utf8')) as SnapshotMeta;
  } catch {
    return undefined;
  }
  if (meta.chainId !== plan.chainId) return undefined;
  if (fingerprint !== undefined && meta.fingerprint !== fingerprint) return undefined;
  if (!existsSync(statePath(plan))) return undefined;
  return { statePath: statePath(plan), deployments: new Map(Object.entries(meta.deployments)) };
}

/** Writes `text` to `file` through a temporary name, so a reader never sees half a file. */
function writeAtomically(file: string, text: string | Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * Seeds a fresh anvil with the plan's snapshot steps, dumps its state (`anvil_dumpState`) into
 * generated/chain-state/<name>.state.json and the deployments and fingerprint into <name>.json, then stops it.
 * @example await writeChainSnapshot(EMBEDDED_CHAIN_PLANS.base)
 */
export async function writeChainSnapshot(
  plan: EmbeddedChainPlan,
  p: { logger?: LocalChainLogger } = {},
): Promise<ChainSnapshot> {
  const fingerprint = snapshotFingerprint(plan) ?? 'sources-absent';
  const chain = await startLocalChain({ chainId: plan.chainId, ...(p.logger ? { logger: p.logger } : {}) });
  try {
    const deployments = await seedLocalChain({
      rpcUrl: chain.rpcUrl,
      chainId: plan.chainId,
      steps: plan.snapshotSteps(),
    });
    const response = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
    });
    const reply = (await response.json()) as { result?: string; error?: { message: string } };
    if (typeof reply.result !== 'string' || !reply.result.startsWith('0x')) {
      throw new ChainSnapshotError(`anvil_dumpState failed: ${reply.error?.message ?? JSON.stringify(reply)}`);
    }
    mkdirSync(chainSnapshotDir(), { recursive: true });
    // anvil answers the dump gzipped and hex-encoded; --load-state reads the JSON itself.
    writeAtomically(statePath(plan), gunzipSync(Buffer.from(reply.result.slice(2), 'hex')));
    const meta: SnapshotMeta = { fingerprint, chainId: plan.chainId, deployments: Object.fromEntries(deployments) };
    writeAtomically(metaPath(plan), `${JSON.stringify(meta, null, 2)}\n`);
    return { statePath: statePath(plan), deployments };
  } finally {
    await chain.stop();
  }
}

/**
 * Writes the snapshot of each plan whose snapshot is missing or stale; returns the names written.
 * @example await writeStaleChainSnapshots(Object.values(EMBEDDED_CHAIN_PLANS))
 */
export async function writeStaleChainSnapshots(plans: readonly EmbeddedChainPlan[]): Promise<string[]> {
  const stale = plans.filter((plan) => readChainSnapshot(plan) === undefined);
  await Promise.all(stale.map((plan) => writeChainSnapshot(plan)));
  return stale.map((plan) => `${plan.name} (${relative(projectRoot(), statePath(plan))})`);
}
