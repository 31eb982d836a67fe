import { createHash } from 'node:crypto';
import { z } from 'zod';
import { unsafeTextChar, UNSAFE_TEXT_MESSAGE } from '../../domain/text';
import { nowUtc } from '../../domain/time';
import type { AuditHook } from '../catalog/common';
import { writeTransaction, type AdminDb } from '../db/database';
import { invalidInput } from '../../domain/api-error';
import { readSybSecret, resealSybSecret, sealSybSecret, writeSybSecret, type StoredSybSecret } from './account-secret';
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

/**
 * A SYB setting may hold no control character (NUL, CR, LF, tab, ESC, DEL, C1: each would end up
 * in a header or a log), no text-direction control (U+202E shows the address as something else
 * than it is) and no lone surrogate: the text rule of domain/text.ts, tab refused too.
 */
const unsafeSettingChar = (text: string): string | null => unsafeTextChar(text, { tab: false });
const safeSetting = (v: string) => unsafeSettingChar(v) === null;
const noControl = { message: `CONTROL_CHARACTER: ${UNSAFE_TEXT_MESSAGE}` };

/** 400 CONTROL_CHARACTER for an unsafe character in any string (or key) of a settings body, before anything else. */
export function refuseControlCharacters(body: unknown, depth = 0): void {
  if (depth > 5) return;
  if (typeof body === 'string') {
    // names the character (U+202E), never the text: it may be the password
    const unsafe = unsafeSettingChar(body);
    if (unsafe !== null) throw invalidInput('CONTROL_CHARACTER', `a setting contains ${unsafe}`);
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
      .refine(safeSetting, noControl)
      .pipe(z.url({ protocol: /^https?$/, message: 'the SYB address must start with https://' }))
      .optional(),
    username: z
      .string()
      .max(200)
      .refine(safeSetting, noControl)
      .transform((v) => v.trim())
      .pipe(z.string().min(1))
      .optional(),
    password: z.string().min(1).max(500).refine(safeSetting, noControl).optional(),
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
 * The SYB account and its session, in the admin and in the admin worker (which runs the syncs)
 * alike, over the same database. URL and user name are settings (`app_settings`). The password
 * is a secret: one set on 设置 is sealed with the payload key (account-secret.ts) so both
 * processes read the same one and it survives a restart, and it is never in clear in data/, a
 * log or a Temporal payload; the environment's is held in memory. The session cookies are a
 * credential too and stay in the memory of the process that logged in (docs/syb-protocol.md).
 */
export class SybService {
  /** CMAUTOBUY_SYB_PASSWORD, bound to the env address and user name when both are given */
  private readonly envPassword:
    { value: string; url: string | null; username: string | null; bound: boolean } | undefined;
  private session: { key: string; session: SybSession } | undefined;
  private syncing: Promise<unknown> = Promise.resolve();
  /** parses SYB answers off the event loop; its (unref'd) worker thread lives as long as the process */
  private readonly parser = new AnswerParser();
  /** key ids already reported as missing from the ring (once per process, not per read) */
  private readonly reportedKeys = new Set<string>();

  constructor(
    readonly db: AdminDb,
    private readonly defaults: SybDefaults = {},
    /** where refused SYB data is reported, with its shipment id (never a recipient's data) */
    readonly log: SybLog = { warn: () => {} },
  ) {
    this.envPassword =
      defaults.password === undefined
        ? undefined
        : {
            value: defaults.password,
            url: defaults.url ?? null,
            username: defaults.username ?? null,
            bound: defaults.url !== undefined && defaults.username !== undefined,
          };
  }

  /**
   * The password given for this address and user name, or null. One set on 设置 goes only to
   * the address and user name saved with it. The environment's goes to the env address and user
   * name; without them it was given for the account saved on 设置, until the operator sets or
   * drops a password there.
   */
  private async passwordFor(url: string | null, username: string | null): Promise<string | null> {
    const secret = await readSybSecret(this.db);
    this.reportUnreadable(secret);
    if (secret.kind === 'held' && secret.url === url && secret.username === username) return secret.password;
    const env = this.envPassword;
    if (!env) return null;
    if (env.bound) return env.url === url && env.username === username ? env.value : null;
    return secret.kind === 'none' ? env.value : null;
  }

  /**
   * At the start of the admin and of the admin worker: a password sealed under an older payload
   * key is sealed again under the current one (rotation), and the answer parser's thread starts
   * now rather than inside the first sync.
   */
  async start(): Promise<void> {
    const secret = await resealSybSecret(this.db);
    if (secret) this.reportUnreadable(secret);
    if ((await this.stored()).url) this.parser.warm();
  }

  /** A password sealed under a key this process's ring does not hold: said once per key and process. */
  private reportUnreadable(secret: StoredSybSecret): void {
    if (secret.kind !== 'unreadable' || this.reportedKeys.has(secret.keyId)) return;
    this.reportedKeys.add(secret.keyId);
    this.log.warn(
      { key_id: secret.keyId },
      'the SYB password is sealed under a payload key this process does not hold: enter it again on 设置',
    );
  }

  async account(): Promise<SybAccount | null> {
    const { url, username } = await this.stored();
    if (!url || !username) return null;
    // Given for another address or account (e.g. the env password after the URL was changed on
    // 设置): never sent to this one.
    const password = await this.passwordFor(url, username);
    return password === null ? null : { url, username, password };
  }

  async view(): Promise<SybSettingsView> {
    const { url, username } = await this.stored();
    const session = username
      ? await this.db.selectFrom('syb_session').select('expires_at').where('username', '=', username).executeTakeFirst()
      : undefined;
    const held = (await this.passwordFor(url, username)) !== null;
    return {
      url,
      username,
      password_set: held,
      password_required: !held,
      configured: held && url !== null && username !== null,
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
        if (err instanceof SybAddressRefused) throw invalidInput('SYB_URL_REFUSED', err.message);
        throw err;
      }
    }
    const before = await this.stored();
    const url = input.url ?? before.url;
    const username = input.username ?? before.username;
    const accountChanged = url !== before.url || username !== before.username;
    // sealed before the transaction: the codec is async, the write lock is held briefly
    const sealed =
      input.password !== undefined ? await sealSybSecret({ url, username, password: input.password }) : undefined;
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
      if (sealed) await writeSybSecret(trx, sealed);
      else if (accountChanged) await writeSybSecret(trx, null);
      await audit(trx, {
        action: 'syb.settings.set',
        details: {
          url: input.url ?? null,
          username: input.username ?? null,
          password_changed: input.password !== undefined,
        },
      });
    });
    // Another account or address: the cached session belongs to the old one.
    this.session = undefined;
    return this.view();
  }

  /** An adapter that reuses (and refreshes) the cached session of this account. */
  client(account: SybAccount): SybClient {
    // a new password set on 设置 (in the other process) means a new login, not the old session
    const key = createHash('sha256')
      .update(JSON.stringify([account.url, account.username, account.password]))
      .digest('hex');
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

  /** Ends the answer parser's worker thread (process shutdown). */
  async close(): Promise<void> {
    await this.parser.close();
  }

  /** Runs syncs one after the other in this process (the one whose worker runs them). */
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
