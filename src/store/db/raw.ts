import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Raw SQL with positional parameters (`$1`, `$2`, … on PostgreSQL) on the connection or the open
 * transaction its Repos is bound to. It is the `db` adapter pg-boss takes (`{ executeSql }`), so a
 * job can be sent inside `Store.tx`; nothing else should need it.
 */
export class RawSqlRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async executeSql(text: string, values: readonly unknown[] = []): Promise<{ rows: any[] }> {
    const result = await this.db.executeQuery(CompiledQuery.raw(text, [...values]));
    return { rows: result.rows as any[] };
  }
}
