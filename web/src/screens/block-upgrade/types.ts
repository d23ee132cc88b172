import type { paths } from '../../api/client';

/** The answers this screen reads, as the service's OpenAPI document says. */
export type Plan = paths['/api/blocks/{id}/upgrade-plan']['get']['responses'][200]['content']['application/json'];
export type PlanEntry = Plan['data'][number];
export type UpgradeSet = paths['/api/blocks/{id}/upgrades']['post']['responses'][200]['content']['application/json'];
export type StoredSet =
  paths['/api/blocks/{id}/upgrades']['get']['responses'][200]['content']['application/json']['data'][number];
export type Adoption = paths['/api/blocks/{id}/adoption']['get']['responses'][200]['content']['application/json'];
export type Version = { major: number; minor: number };

export const versionText = (v: Version) => `${v.major}.${v.minor}`;
