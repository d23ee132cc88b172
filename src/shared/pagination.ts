/** Every list answers in this shape. */
export interface Page<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export const PAGE_DEFAULT_LIMIT = 50;
export const PAGE_MAX_LIMIT = 200;

export const pageOf = <T>(data: T[], total: number, request: PageRequest): Page<T> => ({
  data,
  total,
  limit: request.limit,
  offset: request.offset,
});
