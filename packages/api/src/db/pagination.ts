/** Page arithmetic shared by every list: `page` from 1, `size` is the page size (limit). */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Pagination {
  page: number;
  size: number;
  pages: number;
  count: number;
}

export function offsetOf({ page, limit }: PageRequest): number {
  return (page - 1) * limit;
}

export function paginationOf({ page, limit }: PageRequest, count: number): Pagination {
  return { page, size: limit, pages: Math.ceil(count / limit), count };
}
