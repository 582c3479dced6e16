/**
 * POST /claims/batch: up to 100 claims decided as POST /claims decides each, in order, in one
 * transaction. Each item runs in a savepoint, so a refused item (sold out, already claimed, an
 * unknown collectible or holder) is rolled back alone and the others stand. The answer (one
 * result per item) is decided at the commit and, under an Idempotency-Key, recorded in the same
 * transaction: a retry gets exactly it, and no crash can leave the batch's claims without it.
 */

import type { ClaimWithOrganization } from "../../db/claims.ts";
import type { IdempotentWrite } from "../../db/idempotencyKeys.ts";
import { recordAnswer } from "../../db/idempotencyKeys.ts";
import type { RouteDeps } from "../../deps.ts";
import type { Scope } from "../../domain/auth.ts";
import { chainNotConfigured } from "../../errorCatalogue.ts";
import { ApiError, type ErrorDetail } from "../../errors.ts";
import type { CreateClaimBody } from "../../schemas/claims.ts";
import type { z } from "../../schemas/zod.ts";
import type { ClaimView } from "../views.ts";
import { storeInSavepoint } from "./claimGroups.ts";
import { withChainFacts } from "./claims.ts";

type ClaimInput = z.output<typeof CreateClaimBody>;

export type BatchResult<Item> =
  | { index: number; status: "created"; claim: Item }
  | {
      index: number;
      status: "refused";
      error: { code: string; message: string; details?: ErrorDetail[] };
    };

export async function createBatch<Item>(
  deps: RouteDeps,
  scope: Scope,
  items: ClaimInput[],
  present: (view: ClaimView) => Item,
  idempotency?: IdempotentWrite,
): Promise<{ data: BatchResult<Item>[] }> {
  const chain = deps.chain;
  if (!chain) throw chainNotConfigured();
  const answer = await deps.claimTransactions(() =>
    deps.db.transaction(async (tx) => {
      const outcomes: (ClaimWithOrganization | ApiError)[] = [];
      for (const item of items) {
        const outcome = await storeInSavepoint(deps, tx, scope, { body: item });
        outcomes.push(outcome.ok ? outcome.value : (outcome.error as ApiError));
      }
      const stored = outcomes.filter((o): o is ClaimWithOrganization => !(o instanceof ApiError));
      const views = await withChainFacts(deps, stored);
      let next = 0;
      const data = outcomes.map((outcome, index): BatchResult<Item> => {
        if (outcome instanceof ApiError) {
          const { code, message, details } = outcome;
          return { index, status: "refused", error: { code, message, details } };
        }
        return { index, status: "created", claim: present(views[next++] as ClaimView) };
      });
      if (idempotency) {
        await recordAnswer(tx, idempotency, { status: 200, body: { data }, location: null });
      }
      return { data };
    }),
  );
  chain.wakeRelayer();
  return answer;
}
