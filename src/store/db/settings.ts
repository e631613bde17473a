import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export class SettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored value, or `initial` stored now if none was (the first writer wins across processes). */
  async getOrInit(key: string, initial: string): Promise<string> {
    await this.db.insertInto('settings').values({ key, value: initial }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }
}
