import { sql, type Kysely } from 'kysely';

// Operators and sessions (docs/security.md "Operators"). Neither table ever holds a secret in clear: passwords are
// scrypt hashes, sessions are keyed by the SHA-256 of the cookie value.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('username', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(username) between 1 and 64`),
    )
    .addColumn('password_hash', 'text', (c) => c.notNull().check(sql`password_hash like 'scrypt$%'`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('password_changed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_sha256', 'blob', (c) => c.primaryKey().check(sql`length(id_sha256) = 32`))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
