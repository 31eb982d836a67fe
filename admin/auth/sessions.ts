import crypto from 'node:crypto';
import { toUtcTimestamp } from '../../domain/time';
import type { AdminDb } from '../db/database';

export const SESSION_COOKIE = 'cmautobuy_session';

export interface SessionPolicy {
  /** a session unused this long is over */
  idleSeconds: number;
  /** and every session is over this long after login, used or not */
  absoluteSeconds: number;
}

/** An operator's shift with breaks: idle 2 h, absolute 12 h. */
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleSeconds: 2 * 3600, absoluteSeconds: 12 * 3600 };

// Refreshing last_seen_at on every request would make every read a write; a minute of slack
// on a two-hour idle limit costs nothing.
const TOUCH_EVERY_MS = 60_000;

const TOKEN_RE = /^[0-9a-f]{64}$/;

export interface ActiveSession {
  userId: number;
  username: string;
  idSha256: Buffer;
  csrfToken: string;
}

export function sessionIdSha256(cookieValue: string): Buffer | null {
  return TOKEN_RE.test(cookieValue) ? sha256(Buffer.from(cookieValue, 'hex')) : null;
}

function sha256(bytes: Buffer): Buffer {
  return crypto.createHash('sha256').update(bytes).digest();
}

/**
 * The CSRF token is an HMAC of the session secret: nothing to store, it dies with the session,
 * and only someone holding the cookie value (i.e. the server) can compute it.
 */
function csrfTokenFor(cookieValue: string): string {
  return crypto.createHmac('sha256', Buffer.from(cookieValue, 'hex')).update('cmautobuy csrf v1').digest('hex');
}

export function csrfMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export class SessionStore {
  constructor(
    private readonly db: AdminDb,
    readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
    private readonly clock: () => Date = () => new Date(),
    /** where a request's session is looked up: a read-only connection that never queues behind a write */
    private readonly reads: AdminDb = db,
  ) {}

  /** 32 random bytes for the cookie; the DB keeps only their SHA-256. */
  async create(
    userId: number,
    trx: AdminDb = this.db,
  ): Promise<{ cookieValue: string; csrfToken: string; maxAgeMs: number }> {
    const secret = crypto.randomBytes(32);
    const now = this.clock();
    await trx.deleteFrom('sessions').where('expires_at', '<=', toUtcTimestamp(now)).execute();
    await trx
      .insertInto('sessions')
      .values({
        id_sha256: sha256(secret),
        user_id: userId,
        created_at: toUtcTimestamp(now),
        last_seen_at: toUtcTimestamp(now),
        expires_at: toUtcTimestamp(new Date(now.getTime() + this.policy.absoluteSeconds * 1000)),
      })
      .execute();
    const cookieValue = secret.toString('hex');
    return { cookieValue, csrfToken: csrfTokenFor(cookieValue), maxAgeMs: this.policy.absoluteSeconds * 1000 };
  }

  /** null for anything that is not a live session; an expired one is deleted on the way. */
  async authenticate(cookieValue: string | undefined): Promise<ActiveSession | null> {
    if (cookieValue === undefined || !TOKEN_RE.test(cookieValue)) return null;
    const idSha256 = sha256(Buffer.from(cookieValue, 'hex'));
    const row = await this.reads
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.user_id', 'users.username', 'sessions.last_seen_at', 'sessions.expires_at'])
      .where('sessions.id_sha256', '=', idSha256)
      .executeTakeFirst();
    if (!row) return null;
    const now = this.clock().getTime();
    const lastSeen = Date.parse(row.last_seen_at);
    if (now >= Date.parse(row.expires_at) || now - lastSeen >= this.policy.idleSeconds * 1000) {
      await this.db.deleteFrom('sessions').where('id_sha256', '=', idSha256).execute();
      return null;
    }
    if (now - lastSeen >= TOUCH_EVERY_MS) {
      await this.db
        .updateTable('sessions')
        .set({ last_seen_at: toUtcTimestamp(new Date(now)) })
        .where('id_sha256', '=', idSha256)
        .execute();
    }
    return { userId: row.user_id, username: row.username, idSha256, csrfToken: csrfTokenFor(cookieValue) };
  }

  async destroy(idSha256: Buffer, trx: AdminDb = this.db): Promise<void> {
    await trx.deleteFrom('sessions').where('id_sha256', '=', idSha256).execute();
  }
}
