import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The one computation of an instance's update status, shared by page lists
 * (`has_outdated`) and block usages (`outdated`): the pin (`pb.major/minor`)
 * against the block's current revision (`cur.major/minor`).
 */
export const updateStatusSql = (pb: string, cur: string): RawBuilder<string> =>
  sql<string>`case when ${sql.ref(`${cur}.major`)} > ${sql.ref(`${pb}.major`)} then 'outdated_major' when ${sql.ref(`${cur}.major`)} = ${sql.ref(`${pb}.major`)} and ${sql.ref(`${cur}.minor`)} > ${sql.ref(`${pb}.minor`)} then 'outdated_minor' else 'up_to_date' end`;

export const isOutdatedSql = (pb: string, cur: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(`${cur}.major`)} > ${sql.ref(`${pb}.major`)} or (${sql.ref(`${cur}.major`)} = ${sql.ref(`${pb}.major`)} and ${sql.ref(`${cur}.minor`)} > ${sql.ref(`${pb}.minor`)}))`;
