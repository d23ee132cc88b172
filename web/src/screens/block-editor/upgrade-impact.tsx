import { List, Text } from '@mantine/core';
import type { paths } from '../../api/client';

export type UpgradeImpact = NonNullable<
  paths['/api/blocks/{id}']['put']['responses'][200]['content']['application/json']['upgrade_impact']
>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Whether a save should stop and say what it means for the pages: some instances would not take the new version. */
export const impactWorthAsking = (impact: UpgradeImpact | null | undefined): impact is UpgradeImpact =>
  impact !== null && impact !== undefined && impact.would_not_validate > 0;

/**
 * What the save means for the user's pages, from its dry run: how many
 * instances stand behind the new version, and why some would not validate on
 * it, by field and constraint.
 */
export function ImpactSummary({ impact }: { impact: UpgradeImpact }) {
  const version = `${impact.to.major}.${impact.to.minor}`;
  return (
    <>
      <Text size="sm">
        {plural(impact.behind, 'instance', 'instances')} on your pages {impact.behind === 1 ? 'is' : 'are'} behind
        version {version}
        {impact.behind_major > 0 ? ` (${impact.behind_major} across a major change)` : ''}.{' '}
        {impact.would_not_validate > 0
          ? `${plural(impact.would_not_validate, 'instance', 'instances')} would not take it without new values:`
          : 'All of them can take it.'}
      </Text>
      {impact.reasons.length > 0 && (
        <List size="sm" aria-label="Why instances would not take the new version">
          {impact.reasons.map((reason) => (
            <List.Item key={`${reason.field} ${reason.constraint} ${JSON.stringify(reason.from)}`}>
              {reason.message}
            </List.Item>
          ))}
        </List>
      )}
    </>
  );
}
