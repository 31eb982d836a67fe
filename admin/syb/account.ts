import { z } from 'zod';
import { nowUtc } from '../../domain/time';
import type { AuditHook } from '../catalog/common';
import { writeTransaction, type AdminDb } from '../db/database';
import { SybClient, type SybAccount, type SybSession } from './client';

/** Env defaults of the SYB account (CMAUTOBUY_SYB_URL, _USERNAME, _PASSWORD). */
export interface SybDefaults {
  url?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

const URL_KEY = 'syb.url';
const USERNAME_KEY = 'syb.username';

export const sybSettingsInput = z
  .object({
    url: z
      .url({ protocol: /^https?$/, message: 'the SYB address must start with http:// or https://' })
      .max(500)
      .optional(),
    username: z.string().trim().min(1).max(200).optional(),
    password: z.string().min(1).max(500).optional(),
  })
  .strict();
export type SybSettingsInput = z.infer<typeof sybSettingsInput>;

export interface SybSettingsView {
  url: string | null;
  username: string | null;
  /** the password itself is never returned */
  password_set: boolean;
  /** URL, user name and password are all known: the Schedule runs */
  configured: boolean;
  session_expires_at: string | null;
}

/**
 * The SYB account and its session, owned by the admin process. URL and user name are settings
 * (`app_settings`); the password is a secret and is held in memory only — from the environment
 * or set through the API — so it never reaches data/, a log or a Temporal payload. The session
 * cookies are a credential too and stay in memory (docs/syb-protocol.md).
 */
export class SybService {
  private password: string | undefined;
  private session: { key: string; session: SybSession } | undefined;
  private syncing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly db: AdminDb,
    private readonly defaults: SybDefaults = {},
  ) {
    this.password = defaults.password;
  }

  async account(): Promise<SybAccount | null> {
    const { url, username } = await this.stored();
    if (!url || !username || !this.password) return null;
    return { url, username, password: this.password };
  }

  async view(): Promise<SybSettingsView> {
    const { url, username } = await this.stored();
    const session = username
      ? await this.db.selectFrom('syb_session').select('expires_at').where('username', '=', username).executeTakeFirst()
      : undefined;
    return {
      url,
      username,
      password_set: this.password !== undefined,
      configured: (await this.account()) !== null,
      session_expires_at: session?.expires_at ?? null,
    };
  }

  /** Audited; the audit row names the fields changed, never the password. */
  async update(input: SybSettingsInput, audit: AuditHook): Promise<SybSettingsView> {
    await writeTransaction(this.db, async (trx) => {
      const now = nowUtc();
      for (const [key, value] of [
        [URL_KEY, input.url],
        [USERNAME_KEY, input.username],
      ] as const) {
        if (value === undefined) continue;
        await trx
          .insertInto('app_settings')
          .values({ setting_key: key, value_json: JSON.stringify(value), updated_at: now })
          .onConflict((oc) =>
            oc.column('setting_key').doUpdateSet({ value_json: JSON.stringify(value), updated_at: now }),
          )
          .execute();
      }
      await audit(trx, {
        action: 'syb.settings.set',
        details: {
          url: input.url ?? null,
          username: input.username ?? null,
          password_changed: input.password !== undefined,
        },
      });
    });
    if (input.password !== undefined) this.password = input.password;
    // Another account or address: the cached session belongs to the old one.
    this.session = undefined;
    return this.view();
  }

  /** An adapter that reuses (and refreshes) the cached session of this account. */
  client(account: SybAccount): SybClient {
    const key = JSON.stringify([account.url, account.username]);
    const cached = this.session?.key === key ? this.session.session : undefined;
    return new SybClient(account, cached, (session) => {
      this.session = { key, session };
      void this.recordSession(account.username, session);
    });
  }

  /** Runs syncs one after the other in this process (the only one that runs them). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.syncing.then(fn, fn);
    this.syncing = run.catch(() => undefined);
    return run;
  }

  private async stored(): Promise<{ url: string | null; username: string | null }> {
    const rows = await this.db
      .selectFrom('app_settings')
      .select(['setting_key', 'value_json'])
      .where('setting_key', 'in', [URL_KEY, USERNAME_KEY])
      .execute();
    const value = (key: string) => {
      const row = rows.find((r) => r.setting_key === key);
      const parsed: unknown = row ? JSON.parse(row.value_json) : undefined;
      return typeof parsed === 'string' && parsed !== '' ? parsed : undefined;
    };
    return {
      url: value(URL_KEY) ?? this.defaults.url ?? null,
      username: value(USERNAME_KEY) ?? this.defaults.username ?? null,
    };
  }

  private async recordSession(username: string, session: SybSession): Promise<void> {
    const now = nowUtc();
    const expiresAt = `${session.expiresAt.toISOString().slice(0, 19)}Z`;
    await this.db
      .insertInto('syb_session')
      .values({ username, expires_at: expiresAt, logged_in_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('username').doUpdateSet({ expires_at: expiresAt, logged_in_at: now, updated_at: now }),
      )
      .execute()
      .catch(() => undefined);
  }
}
