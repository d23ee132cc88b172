import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { PageView } from '../modules/pages/pages.js';
import { fieldError, type ExpectedVersions } from '../shared/errors.js';
import { pageBody } from './presenters/page-body.js';

/**
 * ETags and `If-Match`: how a page's or a block's version travels over HTTP.
 *
 * The tag is the object's version, weak (`W/"7"`): two answers of one version
 * can differ in what no write of the object sets (an instance's `update_status`
 * after its block moved on, a block's `fork_count` or `is_favorite`), so they
 * are not byte for byte the same representation, which a strong tag promises.
 *
 * `If-Match` compares versions, weak or strong alike (`W/"7"` and `"7"` both
 * name version 7). RFC 9110 asks If-Match for the strong comparison; ours
 * names what a writer cares about, the version of what it read, and a proxy
 * that compresses answers weakens strong tags on the way anyway. `*` is no
 * condition (the object must exist, as without the header). A tag that is not
 * one of our versions matches nothing: 412. A value that is not a list of
 * entity tags at all is a 400 at `If-Match`.
 */
export const etagOf = (version: number) => `W/"${version}"`;

/** Sets the answer's ETag to the object's version. */
export const withETag = (reply: FastifyReply, version: number): FastifyReply => reply.header('etag', etagOf(version));

/** A page's answer (`GET /pages/{id}`'s bytes), its version as the ETag. */
export const pageAnswer = (reply: FastifyReply, view: PageView): string => {
  withETag(reply, view.version);
  return pageBody(view);
};

/** What a route that honours `If-Match` says of it. */
export const IF_MATCH_NOTE =
  'With `If-Match` (the ETag of your last read, the page’s `version`), a page changed since is a 412 ' +
  '`version_conflict` with `current_version`, and nothing is written.';

/** The header as route schemas declare it: documented, read by `expectedVersions`. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'Write only if the object is still at this version: the `ETag` of your last read (`W/"7"`; `"7"` is the same). ' +
        'Another version: 412 `version_conflict` with `current_version`, and nothing written. Absent, or `*`: no condition.',
    }),
  ),
});

// One entity tag, then a comma or the end: `W/"7"`, `"7"`; etagc is any visible character but `"`.
const TAG = /[ \t]*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;
const EMPTY_ELEMENT = /[ \t]*,/y;
const VERSION = /^[1-9][0-9]{0,9}$/;
const MAX_LENGTH = 1024;

const malformed = () =>
  fieldError('If-Match', 'If-Match is not a list of entity tags: send the ETag of your last read, e.g. W/"3".', {
    code: 'format',
    expected: 'W/"<version>", "<version>" or *',
  });

/** The versions `If-Match` names; undefined without the header or for `*`. */
export function parseIfMatch(value: string | undefined): ExpectedVersions {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '*') return undefined;
  if (text === '' || text.length > MAX_LENGTH) throw malformed();
  const versions: number[] = [];
  let at = 0;
  let tags = 0;
  while (at < text.length) {
    EMPTY_ELEMENT.lastIndex = at;
    if (EMPTY_ELEMENT.test(text)) {
      at = EMPTY_ELEMENT.lastIndex;
      continue;
    }
    TAG.lastIndex = at;
    const found = TAG.exec(text);
    if (!found) throw malformed();
    at = TAG.lastIndex;
    tags++;
    const opaque = found[1]!;
    if (VERSION.test(opaque) && Number(opaque) <= 2_147_483_647) versions.push(Number(opaque));
  }
  if (tags === 0) throw malformed();
  return versions;
}

/** The request's `If-Match`, as the versions a write expects. */
export const expectedVersions = (request: FastifyRequest): ExpectedVersions => {
  const header = request.headers['if-match'];
  return parseIfMatch(Array.isArray(header) ? header.join(', ') : header);
};

const ETAG_HEADER = {
  ETag: {
    type: 'string',
    description:
      'The version of the page or block answered, weak (`W/"7"`): send it back as `If-Match` to write only over that version.',
  },
};

/** A route's schema, for the document only, with the `ETag` header on each 2xx answer. */
export function withETagHeader<T extends { response?: unknown }>(schema: T): T {
  const response = schema.response;
  if (typeof response !== 'object' || response === null) return schema;
  const answers = Object.entries(response as Record<string, unknown>).map(([status, answer]): [string, unknown] =>
    status.startsWith('2') && typeof answer === 'object' && answer !== null
      ? [status, { ...answer, headers: ETAG_HEADER }]
      : [status, answer],
  );
  return { ...schema, response: Object.fromEntries(answers) };
}
