import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openMigratedAdminDb, type AdminDb } from '../db/database';
import { addUser } from './users';
import { csrfMatches, SessionStore } from './sessions';

describe('SessionStore', () => {
  let db: AdminDb;
  let now = new Date('2025-01-01T00:00:00Z');
  const clock = () => now;
  let userId: number;

  beforeAll(async () => {
    db = await openMigratedAdminDb(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-sess-')), 'admin.db'));
    userId = (await addUser(db, { kind: 'system', name: 'test' }, 'erin', 'erin-password-1')).id;
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('keeps only the SHA-256 of the cookie value', async () => {
    const store = new SessionStore(db, { idleSeconds: 600, absoluteSeconds: 3600 }, clock);
    const s = await store.create(userId);
    const rows = await db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(s.cookieValue);
    expect(rows.some((r) => r.id_sha256.equals(Buffer.from(s.cookieValue, 'hex')))).toBe(false);
  });

  it('expires after the idle limit, refreshed by use', async () => {
    const store = new SessionStore(db, { idleSeconds: 600, absoluteSeconds: 3600 }, clock);
    now = new Date('2025-01-01T00:00:00Z');
    const s = await store.create(userId);
    now = new Date('2025-01-01T00:09:00Z');
    expect(await store.authenticate(s.cookieValue)).not.toBeNull();
    now = new Date('2025-01-01T00:18:00Z'); // 9 min after last use
    expect(await store.authenticate(s.cookieValue)).not.toBeNull();
    now = new Date('2025-01-01T00:28:01Z'); // 10 min 1 s idle
    expect(await store.authenticate(s.cookieValue)).toBeNull();
  });

  it('expires at the absolute limit however busy', async () => {
    const store = new SessionStore(db, { idleSeconds: 600, absoluteSeconds: 1800 }, clock);
    now = new Date('2025-01-02T00:00:00Z');
    const s = await store.create(userId);
    for (let m = 5; m < 30; m += 5) {
      now = new Date(Date.parse('2025-01-02T00:00:00Z') + m * 60_000);
      expect(await store.authenticate(s.cookieValue)).not.toBeNull();
    }
    now = new Date('2025-01-02T00:30:00Z');
    expect(await store.authenticate(s.cookieValue)).toBeNull();
  });

  it('derives a CSRF token per session and compares it exactly', async () => {
    const store = new SessionStore(db, undefined, clock);
    const a = await store.create(userId);
    const b = await store.create(userId);
    expect(a.csrfToken).not.toBe(b.csrfToken);
    expect(csrfMatches(a.csrfToken, a.csrfToken)).toBe(true);
    expect(csrfMatches(a.csrfToken, b.csrfToken)).toBe(false);
    expect(csrfMatches(a.csrfToken, undefined)).toBe(false);
    expect(csrfMatches(a.csrfToken, a.csrfToken.slice(1))).toBe(false);
    expect(await store.authenticate('not-hex')).toBeNull();
  });
});
