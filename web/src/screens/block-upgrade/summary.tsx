import { List, Paper, Stack, Text, Title } from '@mantine/core';
import type { Plan } from './types';
import { versionText } from './types';
import { count, reasonText, type FieldInfo } from './words';

/** The plan's summary in sentences: how many instances, on how many pages, which go how, and why some cannot. */
export function PlanSummary({ plan, fields }: { plan: Plan; fields: Map<string, FieldInfo> }) {
  const s = plan.summary;
  const to = versionText(plan.to);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="plan-summary-title">
      <Stack gap="xs">
        <Title order={2} size="h3" id="plan-summary-title">
          Summary
        </Title>
        <Text>
          {count(s.instances, 'instance')} of this block on {count(s.pages, 'page')} of yours;{' '}
          {count(s.up_to_date, 'instance')} already on version {to}
          {s.ahead > 0 ? `, ${count(s.ahead, 'instance')} on a later one` : ''}.
        </Text>
        {s.behind === 0 ? (
          <Text fw={500}>Nothing to upgrade: every instance is on version {to} or later.</Text>
        ) : (
          <List spacing={4} aria-label="What the upgrade does">
            <List.Item>
              {count(s.behind, 'instance')} on {count(s.pages_behind, 'page')} behind version {to}.
            </List.Item>
            {(s.minor > 0 || s.migration === 0) && (
              <List.Item>{count(s.minor, 'instance')} ready with a minor update.</List.Item>
            )}
            {s.migration > 0 && (
              <List.Item>
                {count(s.migration, 'instance')} ready through a value migration (the block’s steps carry their values
                over).
              </List.Item>
            )}
            <List.Item>
              {s.blocked.instances === 0 ? 'None blocked.' : `${count(s.blocked.instances, 'instance')} blocked:`}
              {s.blocked.instances > 0 && (
                <List spacing={2} withPadding aria-label="Why instances are blocked">
                  {s.reasons.map((r) => (
                    <List.Item key={`${r.field} ${r.code}`}>{reasonText(r, plan.to, fields)}</List.Item>
                  ))}
                  {s.blocked.major > 0 && (
                    <List.Item>
                      {count(s.blocked.major, 'instance')} need a major change no value migration covers: replace them
                      on their pages.
                    </List.Item>
                  )}
                  {s.blocked.bindings > 0 && (
                    <List.Item>
                      {count(s.blocked.bindings, 'instance')} use live data the new version no longer accepts: change it
                      on their pages.
                    </List.Item>
                  )}
                </List>
              )}
            </List.Item>
          </List>
        )}
      </Stack>
    </Paper>
  );
}
