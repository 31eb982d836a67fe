import type { Generated } from 'kysely';

/** Operators and their sessions (docs/security.md "Operators"). Secrets are never stored: only scrypt hashes and SHA-256 of session ids. */
interface UsersTable {
  id: Generated<number>;
  username: string;
  /** `scrypt$N$r$p$<salt b64>$<hash b64>`, see admin/auth/passwords.ts */
  password_hash: string;
  created_at: string;
  password_changed_at: string;
}

interface SessionsTable {
  /** SHA-256 of the 32 random bytes in the cookie; the cookie value itself is never stored */
  id_sha256: Buffer;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  /** absolute expiry; idle expiry is last_seen_at + the idle limit */
  expires_at: string;
}

export interface AuthTables {
  users: UsersTable;
  sessions: SessionsTable;
}
