/** The `pageblocks://spec/summary` resource: how to build and publish a page, in one read. */
export const SPEC_SUMMARY = `# Pageblocks for agents

Pageblocks keeps a library of blocks (templates with a field schema and versions)
and pages of a site built from block instances, which it previews and publishes
to the site's CMS.

## The main workflow
1. list_sites: choose a site (its id is the integer site_id of a page). With
   none, create_site, then set_site_provider (the CMS address and token; its
   answer's check says whether the CMS accepted them; check_site_provider asks
   again later).
2. list_blocks / search_blocks / list_tags: find blocks (role: content or layout).
   Their hits are short (no template): get_block reads one whole. When none
   fits, create_block makes a private one (template, fields in schema_content).
3. get_placeholder_schema for each chosen block, with expand: "sources" when
   binding_slots is not empty: schema, a valid example, and each slot's allowed
   sources with their params_schema and data shape.
4. create_page with name, site_id and blocks[] ({block_id, placeholder_values, bindings}).
   Use dry_run: 1 to check without writing.
5. On an error, fix exactly the places in errors[] (path, code, expected, hint) and retry.
6. get_page with_blocks: 1, or preview_page, to verify.
7. publish_page (articles need rubric_ids from the CMS), later publish_update.

## Rules worth knowing
- The field of a page is name, not title; ids are JSON numbers, not strings.
- bindings are keyed by slot name: {source, params}. source must be one of the
  slot's allowed_sources; the keys of params are exactly the properties of the
  source's params_schema (never guess them). params.limit should equal the
  number of items the block's template shows.
- A slug is unique within a site (409 conflict otherwise).
- limit is 1..200 on every list; more is an error.
- A page-block instance stays on the revision it was added with. list_pages
  has_outdated: 1 finds pages to upgrade; upgrade_all_blocks applies minor
  upgrades; skipped_major instances need replace_block with the values of the
  removed fields carried over.
- update_block answers version_bump (major, minor, none); dry_run: 1 tells it in advance.

## Being told of changes (webhooks)
create_webhook subscribes a URL to events (page.created, page.updated,
page.deleted, page.published, page.scheduled, publication.failed,
block.revised, block.deprecated, page.outdated); its answer's secret is shown
once, for the receiver to verify signatures. test_webhook sends a test event;
list_webhook_deliveries shows each delivery and its attempts;
redeliver_webhook_delivery sends one again. A webhook whose deliveries keep
failing is disabled (disabled_reason says why): update_webhook with
enabled: true enables it again, enabled: false stops it.

## Answers
Each tool answers its result once, as JSON text: the API's answer. preview_page
answers the page's outline and size as text, and its HTML (at most 64 Ki
characters) as a text/html resource.

## Errors
A failed call has isError and the text {status, error, errors[]}. Every failure is {error, errors[]}; each errors[] entry has path (where), message,
code (required, type, enum, unknown_key, not_allowed, blank, too_long, too_large,
too_small, too_many, too_few, pattern, format, conflict, not_found, ...), and where it
helps expected (the type, the allowed values or keys, the limit) and hint (a near miss:
"did you mean \`name\`?").
`;
