import { z } from 'zod';
import { hasControlCharacter } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AuditHook } from '../catalog/common';
import { writeTransaction, type AdminDb } from '../db/database';
import { badRequest } from '../http/errors';
import { checkSybAddress, SybAddressRefused } from './address';
import { AnswerParser } from './answer-parser';
import { SybClient, type SybAccount, type SybSession } from './client';

export interface SybLog {
  warn(obj: object, msg: string): void;
}

/** Env defaults of the SYB account (CMAUTOBUY_SYB_URL, _USERNAME, _PASSWORD). */
export interface SybDefaults {
  url?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

const URL_KEY = 'syb.url';
const USERNAME_KEY = 'syb.username';

/** No control character (NUL, CR, LF, ESC, DEL, C1) in any SYB setting: each would end up in a header or a log. */
const noControl = { message: 'CONTROL_CHARACTER: control characters are not allowed' };

/** 400 CONTROL_CHARACTER for a control character in any string (or key) of a settings body, before anything else. */
export function refuseControlCharacters(body: unknown, depth = 0): void {
  if (depth > 5) return;
  if (typeof body === 'string') {
    if (hasControlCharacter(body)) throw badRequest('CONTROL_CHARACTER', 'a setting contains a control character');
    return;
  }
  if (body === null || typeof body !== 'object') return;
  for (const [k, v] of Object.entries(body)) {
    refuseControlCharacters(k, depth + 1);
    refuseControlCharacters(v, depth + 1);
  }
}

export const sybSettingsInput = z
  .object({
    url: z
      .string()
      .max(500)
      .refine((v) => !hasControlCharacter(v), noControl)
      .pipe(z.url({ protocol: /^https?$/, message: 'the SYB address must start with https://' }))
      .optional(),
    username: z
      .string()
      .max(200)
      .refine((v) => !hasControlCharacter(v), noControl)
      .transform((v) => v.trim())
      .pipe(z.string().min(1))
      .optional(),
    password: z
      .string()
      .min(1)
      .max(500)
      .refine((v) => !hasControlCharacter(v), noControl)
      .optional(),
  })
  .strict();
export type SybSettingsInput = z.infer<typeof sybSettingsInput>;

export interface SybSettingsView {
  url: string | null;
  username: string | null;
  /** the password itself is never returned */
  password_set: boolean;
  /** the held password was given for another address or user name: enter it again */
  password_required: boolean;
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
  /** the password and the address and user name it was given for: it is sent nowhere else */
  private password: { value: string; url: string | null; username: string | null; bound: boolean } | undefined;
  private session: { key: string; session: SybSession } | undefined;
  private syncing: Promise<unknown> = Promise.resolve();
  /** parses SYB answers off the event loop; its (unref'd) worker thread lives as long as the admin */
  private readonly parser = new AnswerParser();

  constructor(
    readonly db: AdminDb,
    private readonly defaults: SybDefaults = {},
    /** where refused SYB data is reported, with its shipment id (never a recipient's data) */
    readonly log: SybLog = { warn: () => {} },
  ) {
    // An env password comes with the env address and user name; without them it was given for the
    // account saved on 设置, and is bound to it the first time it is read.
    this.password =
      defaults.password === undefined
        ? undefined
        : {
            value: defaults.password,
            url: defaults.url ?? null,
            username: defaults.username ?? null,
            bound: defaults.url !== undefined && defaults.username !== undefined,
          };
  }

  /** Whether the held password was given for this address and user name. */
  private heldFor(url: string | null, username: string | null): boolean {
    const p = this.password;
    if (!p) return false;
    if (!p.bound) this.password = { ...p, url, username, bound: true };
    return this.password!.url === url && this.password!.username === username;
  }

  /** Starts the answer parser's thread now (admin start), not during the first sync. */
  warm(): void {
    this.parser.warm();
  }

  async account(): Promise<SybAccount | null> {
    const { url, username } = await this.stored();
    // Given for another address or account (e.g. the env password after the URL was changed on
    // 设置): never sent to this one.
    if (!url || !username || !this.password || !this.heldFor(url, username)) return null;
    return { url, username, password: this.password.value };
  }

  async view(): Promise<SybSettingsView> {
    const { url, username } = await this.stored();
    const session = username
      ? await this.db.selectFrom('syb_session').select('expires_at').where('username', '=', username).executeTakeFirst()
      : undefined;
    return {
      url,
      username,
      password_set: this.heldFor(url, username),
      password_required: !this.heldFor(url, username),
      configured: (await this.account()) !== null,
      session_expires_at: session?.expires_at ?? null,
    };
  }

  /**
   * Audited; the audit row names the fields changed, never the password. A new address or user
   * name without the password in the same request drops the held password: it is asked for again
   * rather than sent to where it was not given. The address is checked (address.ts) first.
   */
  async update(input: SybSettingsInput, audit: AuditHook): Promise<SybSettingsView> {
    if (input.url !== undefined) {
      try {
        await checkSybAddress(input.url);
      } catch (err) {
        if (err instanceof SybAddressRefused) throw badRequest('SYB_URL_REFUSED', err.message);
        throw err;
      }
    }
    const before = await this.stored();
    const url = input.url ?? before.url;
    const username = input.username ?? before.username;
    this.heldFor(before.url, before.username); // an unbound env password belongs to the account before this change
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
    if (input.password !== undefined) this.password = { value: input.password, url, username, bound: true };
    else if (this.password && !this.heldFor(url, username)) this.password = undefined;
    // Another account or address: the cached session belongs to the old one.
    this.session = undefined;
    return this.view();
  }

  /** An adapter that reuses (and refreshes) the cached session of this account. */
  client(account: SybAccount): SybClient {
    const key = JSON.stringify([account.url, account.username]);
    const cached = this.session?.key === key ? this.session.session : undefined;
    return new SybClient(
      account,
      cached,
      (session) => {
        this.session = { key, session };
        void this.recordSession(account.username, session);
      },
      this.parser,
    );
  }

  /** Ends the answer parser's worker thread (admin shutdown). */
  async close(): Promise<void> {
    await this.parser.close();
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
