/** What a list answer's `pagination` holds. */
import { expect } from "vitest";

/** A page's `pagination`: it carries a `next_cursor` exactly while later pages follow. */
export function pagination(page: { page: number; size: number; pages: number; count: number }) {
  return { ...page, next_cursor: page.page < page.pages ? expect.any(String) : null };
}
