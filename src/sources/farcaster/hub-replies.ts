import { isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import {
  ethereumAddresses,
  type FarcasterCastRecord,
  type FarcasterEmbedRecord,
  type FarcasterPage,
  farcasterTimeToIso,
  requireFid,
} from './farcaster-records.js';

/** What a hub's user data says about a user: the profile fields it stores, nothing counted. */
export interface HubUserData {
  username: string;
  displayName: string;
  bio: string;
  pfp: string;
}

interface HubMessage {
  hash: string;
  data: Record<string, unknown>;
}

/** `{ messages: [...], nextPageToken }`: every hub list reply has this shape. */
function hubMessages(json: unknown, where: string): { messages: HubMessage[]; cursor: string | null } {
  if (!isJsonObject(json) || !Array.isArray(json.messages))
    throw new UnexpectedReplyError(`${where}: expected { messages: [...] }`);
  const messages = json.messages.map((m) => {
    if (!isJsonObject(m) || !isJsonObject(m.data) || typeof m.hash !== 'string') {
      throw new UnexpectedReplyError(`${where}: a message lacks data or hash`);
    }
    return { hash: m.hash, data: m.data };
  });
  // The hub answers an empty token (or none) on the last page.
  const token = typeof json.nextPageToken === 'string' && json.nextPageToken !== '' ? json.nextPageToken : null;
  return { messages, cursor: token };
}

const USER_DATA_FIELDS: Record<string, keyof HubUserData> = {
  USER_DATA_TYPE_USERNAME: 'username',
  USER_DATA_TYPE_DISPLAY: 'displayName',
  USER_DATA_TYPE_BIO: 'bio',
  USER_DATA_TYPE_PFP: 'pfp',
};

/**
 * `/v1/userDataByFid` → the profile fields; null when the hub holds no user data for the FID (no such user).
 * @example mapHubUserData({ messages: [{ hash: '0x…', data: { userDataBody: { type: 'USER_DATA_TYPE_USERNAME', value: 'dwr' } } }] })?.username // 'dwr'
 */
export function mapHubUserData(json: unknown): HubUserData | null {
  const { messages } = hubMessages(json, 'userDataByFid');
  if (messages.length === 0) return null;
  const data: HubUserData = { username: '', displayName: '', bio: '', pfp: '' };
  for (const { data: d } of messages) {
    const body = isJsonObject(d.userDataBody) ? d.userDataBody : undefined;
    const field = body && typeof body.type === 'string' ? USER_DATA_FIELDS[body.type] : undefined;
    if (field && typeof body?.value === 'string') data[field] = body.value;
  }
  return data;
}

/** `/v1/verificationsByFid` → verified Ethereum addresses, checksummed (Solana ones left out). */
export function mapHubVerifications(json: unknown): string[] {
  const { messages } = hubMessages(json, 'verificationsByFid');
  const raw = messages.map(({ data }) => {
    // Hubs before protocol 2024.x named the body verificationAddEthAddressBody.
    const body = isJsonObject(data.verificationAddAddressBody)
      ? data.verificationAddAddressBody
      : isJsonObject(data.verificationAddEthAddressBody)
        ? data.verificationAddEthAddressBody
        : {};
    return body.protocol === undefined || body.protocol === 'PROTOCOL_ETHEREUM' ? body.address : undefined;
  });
  return ethereumAddresses(raw);
}

function mapHubEmbed(json: unknown): FarcasterEmbedRecord | null {
  if (!isJsonObject(json)) return null;
  if (typeof json.url === 'string') return { url: json.url, castId: null };
  const castId = isJsonObject(json.castId) ? json.castId : undefined;
  if (castId && typeof castId.fid === 'number' && typeof castId.hash === 'string') {
    return { url: null, castId: { fid: castId.fid, hash: castId.hash } };
  }
  return null;
}

/**
 * `/v1/castsByFid` → casts with Farcaster-epoch timestamps as ISO 8601; a hub counts no reactions, so likes,
 * recasts and replies are null.
 */
export function mapHubCasts(json: unknown): FarcasterPage<FarcasterCastRecord> {
  const { messages, cursor } = hubMessages(json, 'castsByFid');
  const items = messages.flatMap(({ hash, data }): FarcasterCastRecord[] => {
    const body = isJsonObject(data.castAddBody) ? data.castAddBody : undefined;
    if (!body) return [];
    if (typeof data.timestamp !== 'number' || !Number.isInteger(data.timestamp) || data.timestamp < 0) {
      throw new UnexpectedReplyError('castsByFid: a message lacks its timestamp');
    }
    const embeds = Array.isArray(body.embeds) ? body.embeds : [];
    return [
      {
        hash,
        text: typeof body.text === 'string' ? body.text : '',
        timestamp: farcasterTimeToIso(data.timestamp),
        likes: null,
        recasts: null,
        replies: null,
        embeds: embeds.map(mapHubEmbed).filter((e): e is FarcasterEmbedRecord => e !== null),
        authorFid: requireFid(data.fid, 'castsByFid'),
        author: null,
      },
    ];
  });
  return { items, cursor };
}

/** `/v1/linksByTargetFid?link_type=follow` → the FIDs that follow the target, in the hub's order. */
export function mapHubFollowerFids(json: unknown): FarcasterPage<number> {
  const { messages, cursor } = hubMessages(json, 'linksByTargetFid');
  const items = messages.flatMap(({ data }) => {
    const link = isJsonObject(data.linkBody) ? data.linkBody : undefined;
    return link?.type === 'follow' ? [requireFid(data.fid, 'linksByTargetFid')] : [];
  });
  return { items, cursor };
}

/**
 * Whether a hub refusal means "no such thing": Snapchain answers every failed lookup with HTTP 400
 * `{error, error_detail}`, the detail carrying the gRPC status (`status: NotFound, …` for an unknown fname).
 * @example isHubNotFound(400, { error: 'Failed to get username proof', error_detail: 'status: NotFound, message: "…"' }) // true
 */
export function isHubNotFound(status: number, body: unknown): boolean {
  if (status !== 400 || !isJsonObject(body) || typeof body.error !== 'string') return false;
  return typeof body.error_detail === 'string' && /\bNotFound\b|not found/i.test(body.error_detail);
}

/** `/v1/userNameProofByName` → the FID that owns the name. */
export function mapHubUsernameProof(json: unknown): number {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('userNameProofByName: expected an object');
  return requireFid(json.fid, 'userNameProofByName');
}

/** `idRegisterEventBody.eventType` of a registration: Snapchain writes the enum's Rust name, Hubble its proto name. */
const ID_REGISTER_EVENT_TYPES = new Set(['Register', 'ID_REGISTER_EVENT_TYPE_REGISTER']);

/**
 * `/v1/onChainEventsByFid?event_type=EVENT_TYPE_ID_REGISTER` → when the FID was registered (ISO 8601), from the
 * Register event's `blockTimestamp` (Unix seconds of its block); null when the hub holds no Register event.
 * Transfers and recovery changes of the same FID come in the same list and are skipped.
 * @example mapHubIdRegistration({ events: [{ type: 'EVENT_TYPE_ID_REGISTER', blockTimestamp: 1697059200, fid: 3, idRegisterEventBody: { eventType: 'Register' } }] }) // '2023-10-11T21:20:00.000Z'
 */
export function mapHubIdRegistration(json: unknown): string | null {
  if (!isJsonObject(json) || !Array.isArray(json.events))
    throw new UnexpectedReplyError('onChainEventsByFid: expected { events: [...] }');
  let earliest: number | null = null;
  for (const event of json.events) {
    if (!isJsonObject(event)) throw new UnexpectedReplyError('onChainEventsByFid: an event is not an object');
    const body = isJsonObject(event.idRegisterEventBody) ? event.idRegisterEventBody : undefined;
    if (
      event.type !== 'EVENT_TYPE_ID_REGISTER' ||
      typeof body?.eventType !== 'string' ||
      !ID_REGISTER_EVENT_TYPES.has(body.eventType)
    )
      continue;
    const seconds = event.blockTimestamp;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0) {
      throw new UnexpectedReplyError('onChainEventsByFid: a Register event lacks its blockTimestamp');
    }
    if (earliest === null || seconds < earliest) earliest = seconds;
  }
  return earliest === null ? null : new Date(earliest * 1000).toISOString();
}
