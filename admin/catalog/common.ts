import crypto from 'node:crypto';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AuditEntry } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { invalidInput } from '../../domain/api-error';
import { CatalogErrors } from './errors';

/**
 * Writes the audit row of an operator action inside the same transaction as the change.
 * Routes pass one built from the request (`auditRequest(ctx, trx, actorOf(ctx), entry)`),
 * tests may pass a no-op.
 */
export type AuditHook = (trx: AdminDb, entry: AuditEntry) => Promise<void>;

/**
 * The key list cursors are signed with. Per process: a cursor is a moment's bookmark, and one
 * from before a restart is refused like any other the API did not issue (the list starts over).
 */
const CURSOR_KEY = crypto.randomBytes(32);
const CURSOR_MAX_CHARS = 1024;

const cursorSignature = (payload: string) =>
  crypto.createHmac('sha256', CURSOR_KEY).update(payload).digest().subarray(0, 16);

/**
 * Keyset cursors are opaque to clients: base64url of the last key, then an HMAC of it, so a
 * list only ever resumes from a key it handed out itself (docs/security.md "Request hygiene").
 */
export function encodeCursor(key: string): string {
  const payload = Buffer.from(JSON.stringify({ k: key }), 'utf8').toString('base64url');
  return `${payload}.${cursorSignature(payload).toString('base64url')}`;
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const dot = cursor.indexOf('.');
  if (cursor.length <= CURSOR_MAX_CHARS && dot > 0) {
    const payload = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = cursorSignature(payload);
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) {
      const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'k' in parsed && typeof parsed.k === 'string')
        return parsed.k;
    }
  }
  throw invalidInput(CatalogErrors.INVALID_CURSOR, 'cursor is not one this API returned; start again without it');
}

export type CollectStateFilter = 'pending' | 'collecting' | 'collected' | 'failed';

/**
 * The collect state an operator sees, as SQL over the `pdd_products as p` of a list query: a
 * collect still "collecting" after CollectStaleAfter counts as failed (docs/architecture.md §4.1). One place,
 * so the 商品 and PDD 商品 lists can never disagree about the rule.
 */
export function collectStateIs(state: CollectStateFilter, staleBefore: string): RawBuilder<SqlBool> {
  const status = sql.ref('p.collect_status');
  const updated = sql.ref('p.updated_at');
  switch (state) {
    case 'pending':
    case 'collected':
      return sql<SqlBool>`${status} = ${state}`;
    case 'collecting':
      return sql<SqlBool>`(${status} = 'collecting' and ${updated} >= ${staleBefore})`;
    case 'failed':
      return sql<SqlBool>`(${status} = 'failed' or (${status} = 'collecting' and ${updated} < ${staleBefore}))`;
  }
}
