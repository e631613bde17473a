import type { Kysely } from 'kysely';

// Webhook secrets are sealed at rest (src/runtime/secret-box.ts): `secret` holds the ciphertext and
// `secret_key_id` the id of the key that sealed it. Rows written before this have a null key id and a
// plain secret; every process seals those at start (WebhooksRepo.sealPlainSecrets), since a
// migration does not have the key.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('secret_key_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('secret_key_id').execute();
}
