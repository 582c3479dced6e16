/** The event feed (GET /events) read to its end, for tests that check what it told. */

export interface FeedEvent {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: each event type has its own object.
  data: any;
}

/** Every event of the feed, oldest first, page after page; `get` answers a GET's JSON body. */
export async function wholeFeed(
  get: (path: string) => Promise<{ data: FeedEvent[]; next_cursor: string }>,
): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let after = "";
  for (;;) {
    const page = await get(`/events?limit=100${after}`);
    events.push(...page.data);
    if (page.data.length < 100) return events;
    after = `&after=${page.next_cursor}`;
  }
}
