import { z } from 'zod';
import { nowUtc } from '../../domain/time';
import type { AuditActor } from '../audit/audit';
import { recordAudit } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { generatePassword, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords';

const usernameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9._-]{0,63}$/, 'lowercase letters, digits, ".", "_" or "-", starting with a letter, at most 64');
const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`);

export class UserError extends Error {
  override readonly name = 'UserError';
}

export interface OperatorUser {
  id: number;
  username: string;
  created_at: string;
  password_changed_at: string;
}

export async function addUser(
  db: AdminDb,
  actor: AuditActor,
  username: string,
  password: string,
): Promise<OperatorUser> {
  const name = usernameSchema.parse(username);
  const hash = await hashPassword(newPasswordSchema.parse(password));
  return writeTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst();
    if (existing) throw new UserError(`user ${name} already exists; use "user passwd ${name}" to change the password`);
    const now = nowUtc();
    const row = await trx
      .insertInto('users')
      .values({ username: name, password_hash: hash, created_at: now, password_changed_at: now })
      .returning(['id', 'username', 'created_at', 'password_changed_at'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, { action: 'user.add', target: { kind: 'user', id: name } });
    return row;
  });
}

/** A new password ends every session of that user: whoever held the old one is out. */
export async function changePassword(
  db: AdminDb,
  actor: AuditActor,
  username: string,
  password: string,
): Promise<void> {
  const name = usernameSchema.parse(username);
  const hash = await hashPassword(newPasswordSchema.parse(password));
  await writeTransaction(db, async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst();
    if (!user) throw new UserError(`no user ${name}; "user list" shows who exists`);
    await trx
      .updateTable('users')
      .set({ password_hash: hash, password_changed_at: nowUtc() })
      .where('id', '=', user.id)
      .execute();
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    await recordAudit(trx, actor, {
      action: 'user.passwd',
      target: { kind: 'user', id: name },
      details: { sessions_ended: Number(ended.numDeletedRows) },
    });
  });
}

export async function listUsers(db: AdminDb): Promise<OperatorUser[]> {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'created_at', 'password_changed_at'])
    .orderBy('username')
    .execute();
}

export const INITIAL_ADMIN_USERNAME = 'admin';

/**
 * First start: no operator exists, so create `admin`. A generated password goes to `announce`
 * exactly once (a terminal, never the logger) and nowhere else; its hash is all that is kept.
 */
export async function ensureInitialAdmin(
  db: AdminDb,
  opts: { password: string | undefined; announce: (line: string) => void },
): Promise<'created' | 'exists'> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return 'exists';
  const password = opts.password ?? generatePassword();
  try {
    await addUser(db, { kind: 'system', name: 'first-start' }, INITIAL_ADMIN_USERNAME, password);
  } catch (err) {
    // Two processes starting at once on a fresh data dir: the other one created it.
    if (err instanceof UserError) return 'exists';
    throw err;
  }
  if (opts.password === undefined) {
    opts.announce(`Initial password for operator "${INITIAL_ADMIN_USERNAME}" (shown only this once): ${password}`);
  }
  return 'created';
}
