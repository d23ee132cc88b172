import type { SourceCatalog } from '../../modules/blocks/blocks.js';
import type { Database } from '../dialects/dialect.js';
import { fromJson } from './rows.js';

/** The ids of the data sources and result types that exist: what a binding field may name. */
export function sourceIdsRepository({ db }: Database): SourceCatalog {
  return {
    async knownSourceIds() {
      const rows = await db.selectFrom('data_sources').select('id').execute();
      return new Set(rows.map((r) => r.id));
    },
    async knownResultTypeIds() {
      const rows = await db.selectFrom('data_result_types').select('id').execute();
      return new Set(rows.map((r) => r.id));
    },
    async paramsSchemas(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('data_sources').select(['id', 'params_schema']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, fromJson<Record<string, unknown>>(r.params_schema)]));
    },
  };
}
