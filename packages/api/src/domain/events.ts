/** What integrators are told of: the event types the feed lists and webhooks deliver. */

export const EVENT_TYPES = [
  "collectible.confirmed",
  "collectible.failed",
  "claim.confirmed",
  "claim.failed",
  "claim.transferred",
  // Finality (see chain/finality.ts): a confirmation withdrawn by a reorg, and one made final.
  "collectible.reorged",
  "collectible.finalized",
  "claim.reorged",
  "claim.finalized",
  // A user proved a wallet of their own (services/walletLink.ts).
  "user.wallet_linked",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
