import type { SourceCatalog } from '../../modules/blocks/blocks.service.js';
import type { Database } from '../dialects/dialect.js';

/** The ids of the data sources that exist: what a binding field may name. */
export function sourceIdsRepository({ db }: Database): SourceCatalog {
  return {
    async knownSourceIds() {
      const rows = await db.selectFrom('data_sources').select('id').execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
