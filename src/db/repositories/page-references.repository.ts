import type { PageReferences } from '../../modules/pages/pages.js';
import type { Database } from '../dialects/dialect.js';
import { prepared } from '../prepared.js';

// Asked on page writes: compiled once, run past Kysely.
export function pageReferencesRepository({ db, readNow }: Database): PageReferences {
  const kinds = prepared(db, 0, () => db.selectFrom('page_types').select('kind').orderBy('kind'), readNow);
  const kind = prepared(
    db,
    1,
    (name: string) => db.selectFrom('page_types').select('kind').where('kind', '=', name),
    readNow,
    'first',
  );
  const folder = prepared(
    db,
    1,
    (id: number) => db.selectFrom('folders').select(['site_id', 'owner_id']).where('id', '=', id),
    readNow,
    'first',
  );
  return {
    async hasPageKind(name) {
      return (await kind(name)).length > 0;
    },
    async pageKinds() {
      return (await kinds()).map((r) => r.kind);
    },
    async folder(id) {
      return (await folder(id))[0];
    },
  };
}
