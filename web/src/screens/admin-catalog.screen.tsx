import { Stack, Tabs, Title } from '@mantine/core';
import { CatalogSection } from './admin-catalog/catalog-section';
import { dataSources } from './admin-catalog/data-sources.section';
import { layouts } from './admin-catalog/layouts.section';
import { pageTypes } from './admin-catalog/page-types.section';
import { resultTypes } from './admin-catalog/result-types.section';
import type { Section } from './admin-catalog/section';
import { layoutTags, tags } from './admin-catalog/tags.section';
import { DocumentTitle } from '../shell/document-title';

// Each kind's list, fields and routes live in admin-catalog/<kind>.section.ts.
const SECTIONS = [tags, layoutTags, pageTypes, dataSources, resultTypes, layouts] as Section<unknown>[];

/** Administrators: the global catalog, one tab per list. */
export function AdminCatalogScreen() {
  return (
    <Stack maw={1040}>
      <DocumentTitle title={'Catalog'} />
      <Title order={1}>Catalog</Title>
      <Tabs defaultValue={SECTIONS[0]!.id} keepMounted={false}>
        <Tabs.List>
          {SECTIONS.map((section) => (
            <Tabs.Tab key={section.id} value={section.id}>
              {section.title}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {SECTIONS.map((section) => (
          <Tabs.Panel key={section.id} value={section.id} pt="md">
            <CatalogSection section={section} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
