import { getAddress, isAddress } from 'viem';
import { UnexpectedReplyError } from '../json-reply.js';

/**
 * A Farcaster user as the service answers it (docs/api-contract.md#social-protocol-user-and-cast), whichever upstream
 * it came from.
 */
export interface FarcasterProfile {
  fid: number;
  /** The fname or ENS name the user chose; empty when none is set. */
  username: string;
  /** Empty when the user set none (Farcaster user data clears a field with an empty value). */
  displayName: string;
  bio: string;
  pfp: string;
  /** Null where the upstream keeps no count (the hub fallback). */
  followers: number | null;
  following: number | null;
  /** Verified Ethereum addresses, EIP-55 checksummed, oldest first. */
  verifications: string[];
  /** `active` / `inactive` from Neynar's user score (see `activeStatusOf`); null where the reply has no score. */
  activeStatus: string | null;
  /** ISO 8601 registration time where the reply carries it. */
  registeredAt: string | null;
}

/** What a cast embeds: a URL, or another cast by its id. */
export interface FarcasterEmbedRecord {
  url: string | null;
  castId: { fid: number; hash: string } | null;
}

/**
 * A cast (docs/api-contract.md#social-protocol-user-and-cast), with its author's FID and, where the reply held it, the
 * author.
 */
export interface FarcasterCastRecord {
  hash: string;
  text: string;
  /** ISO 8601. */
  timestamp: string;
  /** Null where the upstream keeps no count (the hub fallback). */
  likes: number | null;
  recasts: number | null;
  replies: number | null;
  embeds: FarcasterEmbedRecord[];
  authorFid: number;
  author: FarcasterProfile | null;
}

/** One page of an upstream list; `cursor` is the upstream's own, null on the last page. */
export interface FarcasterPage<T> {
  items: T[];
  cursor: string | null;
}

/** 2021-01-01T00:00:00Z: Farcaster message timestamps count seconds from here, not from the Unix epoch. */
export const FARCASTER_EPOCH_UNIX_SECONDS = 1_609_459_200;

/**
 * A Farcaster-epoch timestamp (seconds since 2021-01-01 UTC) as ISO 8601.
 * @example farcasterTimeToIso(0) // '2021-01-01T00:00:00.000Z'
 */
export function farcasterTimeToIso(farcasterSeconds: number): string {
  return new Date((farcasterSeconds + FARCASTER_EPOCH_UNIX_SECONDS) * 1000).toISOString();
}

/** Ethereum addresses among `values`, checksummed, without repeats, in order (Solana addresses are left out). */
export function ethereumAddresses(values: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) continue;
    const checksummed = getAddress(value);
    if (!out.includes(checksummed)) out.push(checksummed);
  }
  return out;
}

/** A non-negative integer count, or null for anything else. */
export function countOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** A positive integer FID or the mapper refuses the reply. */
export function requireFid(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new UnexpectedReplyError(`${where}: fid is not a positive integer`);
  }
  return value;
}

export const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
