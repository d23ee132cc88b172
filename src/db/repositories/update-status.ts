import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { UpdateStatus, Version } from '../../modules/blocks/blocks.js';

/**
 * The one computation of an instance's update status, shared by page lists
 * (`has_outdated`) and block usages (`outdated`): the pin (`pb.major/minor`)
 * against the block's current revision (`cur.major/minor`).
 */
const versions = (pb: string, cur: string) => ({
  pinMajor: sql.ref(`${pb}.major`),
  pinMinor: sql.ref(`${pb}.minor`),
  curMajor: sql.ref(`${cur}.major`),
  curMinor: sql.ref(`${cur}.minor`),
});

export const updateStatusSql = (pb: string, cur: string): RawBuilder<string> => {
  const { pinMajor, pinMinor, curMajor, curMinor } = versions(pb, cur);
  return sql<string>`case
    when ${curMajor} > ${pinMajor} then 'outdated_major'
    when ${curMajor} = ${pinMajor} and ${curMinor} > ${pinMinor} then 'outdated_minor'
    else 'up_to_date' end`;
};

export const isOutdatedSql = (pb: string, cur: string): RawBuilder<SqlBool> => {
  const { pinMajor, pinMinor, curMajor, curMinor } = versions(pb, cur);
  return sql<SqlBool>`(${curMajor} > ${pinMajor} or (${curMajor} = ${pinMajor} and ${curMinor} > ${pinMinor}))`;
};

/** The same rule in JavaScript, for an answer built from rows just written. */
export const updateStatusOf = (pin: Version, current: Version): UpdateStatus =>
  current.major > pin.major
    ? 'outdated_major'
    : current.major === pin.major && current.minor > pin.minor
      ? 'outdated_minor'
      : 'up_to_date';
