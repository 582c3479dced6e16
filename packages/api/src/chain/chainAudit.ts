/**
 * Never serve state the chain does not have. Before the relayer sends anything it checks that
 * the deployment is on the chain (code at the address, the deploy transaction in its recorded
 * block) and, when asked (`CHAIN_AUDIT=1`, set by the local stack after an unclean stop), that
 * every object recorded as mined is on-chain. What the chain lacks becomes pending again, so it
 * is never reported confirmed; on the local chain it is then sent again in order (collectibles
 * before their claims; the contract's claim ids make a second send safe), on any other chain the
 * relayer stops and `/ready` names the problem.
 */
import type { Hex } from "viem";
import { minedIntents, unmine } from "../db/auditedIntents.ts";
import type { RelayerContext } from "./relayerContext.ts";

/** The chain is not the one this API's records describe; sending would make things worse. */
export class ChainMismatchError extends Error {
  override name = "ChainMismatchError";
}

export interface AuditOptions {
  deployment: { deployBlock: number; deployTransaction: Hex };
  /** Check every mined object too (slow: one call each). */
  objects: boolean;
  /** Send again what the chain lacks (the local development chain only). */
  repair: boolean;
}

const CHUNK = 500;

async function missing<T>(rows: T[], onChain: (row: T) => Promise<boolean>): Promise<T[]> {
  const lacking: T[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const present = await Promise.all(chunk.map(onChain));
    lacking.push(...chunk.filter((_, j) => !present[j]));
  }
  return lacking;
}

export async function auditChain(ctx: RelayerContext, options: AuditOptions): Promise<void> {
  const { chain, logger } = ctx;
  const { deployBlock, deployTransaction } = options.deployment;
  const where = `contract ${chain.contract} on chain ${chain.chainId}`;
  if (!(await chain.contractDeployed())) {
    throw new ChainMismatchError(`no code at ${where}: the chain lacks the deployment`);
  }
  const minedIn = await chain.minedIn(deployTransaction);
  if (minedIn !== BigInt(deployBlock)) {
    throw new ChainMismatchError(
      `the deploy transaction of ${where} is not in block ${deployBlock}: another chain`,
    );
  }
  if (!options.objects) return;

  const recorded = await minedIntents(ctx.db);
  const lostCollectibles = await missing(recorded.collectibles, (row) =>
    chain.collectibleExists(row.id),
  );
  const lostClaims = await missing(recorded.claims, (row) =>
    chain.isClaimed(row.collectibleId, row.id),
  );
  const lost = lostCollectibles.length + lostClaims.length;
  logger.info(
    { checked: recorded.collectibles.length + recorded.claims.length, lost },
    "audited recorded objects against the chain",
  );
  if (lost === 0) return;
  await unmine(
    ctx.db,
    lostCollectibles.map((row) => row.id),
    lostClaims.map((row) => row.id),
  );
  ctx.statusWaiter.statusesChanged();
  // The chain forgot transactions too: the relayer's next nonce is the chain's again.
  ctx.nonce = undefined;
  ctx.needsReconcile = true;
  const what = `${lostCollectibles.length} collectibles and ${lostClaims.length} claims`;
  if (!options.repair) {
    throw new ChainMismatchError(`the chain lacks ${what} recorded as mined; nothing is sent`);
  }
  logger.warn(`the chain lacked ${what} recorded as mined: sending them again`);
}
