import { sql, type Kysely } from 'kysely';

/**
 * One captcha code: a captcha or slider check is `CAPTCHA_REQUIRED` before the fence and after
 * the tap alike (domain/purchase/reasons.ts; after the tap the task's submission says so, and the
 * reason reads 提交后出现验证码). Rows stored under the older `CAPTCHA` and `CAPTCHA_AFTER_SUBMIT`
 * take the code: the task's reason, the attempt's failure and the reasons in its timeline (JSON
 * written by JSON.stringify, so the exact `"reason":"…"` text is the key). The audit log is
 * append-only and keeps what was written; the code reads old spellings anyway (`canonicalReason`).
 */
const OLD = ['CAPTCHA', 'CAPTCHA_AFTER_SUBMIT'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const old = sql.join(OLD.map((c) => sql.lit(c)));
  await sql`UPDATE tasks SET reason_code = 'CAPTCHA_REQUIRED' WHERE reason_code IN (${old})`.execute(db);
  await sql`UPDATE purchase_attempts SET failure_code = 'CAPTCHA_REQUIRED' WHERE failure_code IN (${old})`.execute(db);
  for (const c of OLD) {
    await sql`UPDATE purchase_attempts SET timeline_json = replace(timeline_json, ${`"reason":"${c}"`}, '"reason":"CAPTCHA_REQUIRED"')
      WHERE instr(timeline_json, ${`"reason":"${c}"`}) > 0`.execute(db);
  }
}

/** Nothing to undo: the old spellings still read as this code. */
export async function down(): Promise<void> {}
