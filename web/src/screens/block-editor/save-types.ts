import type { paths } from '../../api/client';

/** The body of a block update, and its answer (also its dry run's). */
export type UpdateBody = NonNullable<paths['/api/blocks/{id}']['put']['requestBody']>['content']['application/json'];
export type UpdateResult = paths['/api/blocks/{id}']['put']['responses'][200]['content']['application/json'];
