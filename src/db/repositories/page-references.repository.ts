import type { PageReferences } from '../../modules/pages/pages.js';
import type { Database } from '../dialects/dialect.js';

export function pageReferencesRepository({ db }: Database): PageReferences {
  return {
    async pageKinds() {
      return (await db.selectFrom('page_types').select('kind').orderBy('kind').execute()).map((r) => r.kind);
    },
    async folder(id) {
      return db.selectFrom('folders').select(['site_id', 'owner_id']).where('id', '=', id).executeTakeFirst();
    },
  };
}
