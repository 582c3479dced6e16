/**
 * Moving tokens home: the relayer's step that hands each stored move (db/transfersHome.ts) from
 * the user's service wallet to their linked wallet. The service signs as the custodial holder
 * (the user's derived wallet signs `safeTransferFrom`, or `safeBatchTransferFrom` for several
 * tokens); no contract role moves anyone's token.
 *
 * Exactly once, decided from the chain: it runs inside the relayer's round, so only the process
 * holding the sending lock moves tokens, and each round first reads which tokens the service
 * wallet still holds. One it no longer holds is not sent again: its move is confirmed when the
 * token is at the linked wallet. While a transfer of the wallet is unmined (sent before a
 * restart), nothing else is sent from it; and a transfer is signed with the wallet's nonce as
 * mined (`latest`), so one sent again can only take the place of one the chain dropped, never
 * follow it.
 *
 * Gas: the relayer pays the shortfall only. The wallet's balance is read first, and the relayer
 * sends it `gas × max fee` less what it has: a crash after the funding leaves the wallet funded,
 * and the next round sends nothing more. Fees never exceed MAX_FEE_PER_GAS_GWEI.
 */
import { collectiblesAbi, tokenIdOf } from "@collectibles/contracts";
import { type Address, getAddress, type Hex } from "viem";
import type { LocalAccount } from "viem/accounts";
import { type MoveWithToken, markMoves, openMoves } from "../db/transfersHome.ts";
import { RevertedError, type TokenTransferCall } from "./contractCalls.ts";
import { dispatch, type RelayerContext } from "./relayerContext.ts";

/** Signs for a service wallet, by its index (wallets/wallets.ts). */
export interface ServiceWallets {
  signerAt(index: number): LocalAccount;
}

type OpenMove = MoveWithToken & { walletIndex: number | null };

/** Moves taken per round. */
const MOVES_PER_ROUND = 100;
/** A payment of ether to an account without code. */
const PAYMENT_GAS = 21_000n;

/** One round: every move under way, grouped by service wallet and linked wallet. */
export async function sendHome(ctx: RelayerContext, wallets: ServiceWallets): Promise<boolean> {
  const moves = await openMoves(ctx.db, MOVES_PER_ROUND);
  const groups = new Map<string, OpenMove[]>();
  for (const move of moves) {
    const key = `${move.fromAddress}:${move.toAddress}`.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), move]);
  }
  let progressed = false;
  for (const group of groups.values()) {
    if (await moveGroup(ctx, wallets, group)) progressed = true;
  }
  return progressed;
}

const idsOf = (moves: OpenMove[]) => moves.map((move) => move.id);
const tokenOf = (move: OpenMove) => tokenIdOf(move.collectibleId, move.claimId);

async function balances(ctx: RelayerContext, holder: Address, tokens: bigint[]) {
  return ctx.chain.reader.readContract({
    abi: collectiblesAbi,
    address: ctx.chain.contract,
    functionName: "balanceOfBatch",
    args: [tokens.map(() => holder), tokens],
  });
}

/** Moves one service wallet's tokens to one linked wallet; answers whether anything changed. */
async function moveGroup(
  ctx: RelayerContext,
  wallets: ServiceWallets,
  moves: OpenMove[],
): Promise<boolean> {
  const [first] = moves;
  if (!first) return false;
  if (first.walletIndex === null) {
    await markMoves(ctx.db, idsOf(moves), {
      status: "failed",
      failureReason: "the user has no service wallet",
    });
    return true;
  }
  const from = getAddress(first.fromAddress);
  const to = getAddress(first.toAddress);
  const reader = ctx.chain.reader;
  // The nonces first, then the balances: a transfer unmined when the nonces are read is waited
  // for; one mined before then shows in the balances. Read the other way round, a transfer mined
  // between the two reads left a token that looked held and a wallet with nothing unmined: the
  // token was sent again, the chain refused it, and the move failed though the token was home.
  const [nonce, queued] = await Promise.all([
    reader.getTransactionCount({ address: from, blockTag: "latest" }),
    reader.getTransactionCount({ address: from, blockTag: "pending" }),
  ]);
  const held = await balances(ctx, from, moves.map(tokenOf));
  const gone = moves.filter((_, i) => held[i] === 0n);
  const still = moves.filter((_, i) => (held[i] ?? 0n) > 0n);
  if (gone.length > 0) await settleGone(ctx, gone, to);
  if (still.length === 0) return gone.length > 0;
  // A transfer of this wallet is still unmined (sent before a restart): its outcome decides.
  if (queued > nonce) return gone.length > 0;
  const tokens = still.map(tokenOf);
  const call: TokenTransferCall =
    tokens.length === 1
      ? { functionName: "safeTransferFrom", args: [from, to, tokens[0] as bigint, 1n, "0x"] }
      : {
          functionName: "safeBatchTransferFrom",
          args: [from, to, tokens, tokens.map(() => 1n), "0x"],
        };
  let gas: bigint;
  try {
    gas = await ctx.chain.estimate(call, from);
  } catch (error) {
    if (!(error instanceof RevertedError)) throw error;
    // The linked wallet refuses ERC-1155 tokens (a contract without the receiver hook).
    await markMoves(ctx.db, idsOf(still), {
      status: "failed",
      failureReason: `the chain refused the transfer: ${error.reason}`,
    });
    return true;
  }
  const fees = await reader.estimateFeesPerGas();
  const cap = ctx.chain.maxFeePerGas;
  const fee = cap !== undefined && cap < fees.maxFeePerGas ? cap : fees.maxFeePerGas;
  const need = gas * fee;
  const balance = await reader.getBalance({ address: from });
  if (balance < need) {
    await fund(ctx, from, need - balance);
    // Not funded after all (the payment's outcome is unknown): the next round looks again.
    if ((await reader.getBalance({ address: from })) < need) return false;
  }
  const signer = wallets.signerAt(first.walletIndex);
  if (signer.address !== from) {
    // Not this mnemonic's wallet (start-up refuses another mnemonic): never block the relayer.
    await markMoves(ctx.db, idsOf(still), {
      status: "failed",
      failureReason: "the service cannot sign for this wallet",
    });
    return true;
  }
  const sent = await ctx.chain
    .senderFor(signer)
    .send(call, { gas, nonce, signal: ctx.signal, maxFeePerGas: fee });
  await markMoves(ctx.db, idsOf(still), { status: "sent", transactionHash: sent.hash });
  const mined = await sent.mined;
  const hash: Hex = mined.hash;
  if (mined.status === "success") {
    await markMoves(ctx.db, idsOf(still), {
      status: "confirmed",
      transactionHash: hash,
      minedBlock: mined.blockNumber,
      minedBlockHash: mined.blockHash,
    });
  } else {
    await markMoves(ctx.db, idsOf(still), {
      status: "failed",
      transactionHash: hash,
      failureReason: "the transfer reverted",
    });
  }
  ctx.logger.info({ from, to, tokens: tokens.length, hash }, "tokens moved home");
  return true;
}

/** Moves whose token the service wallet no longer holds: sent before, nothing to send now. */
async function settleGone(ctx: RelayerContext, moves: OpenMove[], to: Address): Promise<void> {
  const there = await balances(ctx, to, moves.map(tokenOf));
  const arrived = moves.filter((_, i) => (there[i] ?? 0n) > 0n);
  const elsewhere = moves.filter((_, i) => (there[i] ?? 0n) === 0n);
  // Their block, from the transaction sent before, so that a reorg of it is followed too.
  for (const hash of new Set(arrived.map((move) => move.transactionHash))) {
    const mined = hash ? await ctx.chain.receiptOf(hash as Hex) : undefined;
    const ids = idsOf(arrived.filter((move) => move.transactionHash === hash));
    await markMoves(ctx.db, ids, {
      status: "confirmed",
      ...(mined?.status === "success" && {
        minedBlock: mined.blockNumber,
        minedBlockHash: mined.blockHash,
      }),
    });
  }
  await markMoves(ctx.db, idsOf(elsewhere), {
    status: "failed",
    failureReason: "the token left the service wallet, but not for the linked wallet",
  });
}

/** The relayer pays `value` to the service wallet, with its own nonce, and waits for it. */
async function fund(ctx: RelayerContext, to: Address, value: bigint): Promise<void> {
  ctx.logger.info({ to, value: value.toString() }, "funding a service wallet's transfer gas");
  await dispatch(ctx, [
    {
      call: { to, value },
      gas: PAYMENT_GAS,
      onMined: async () => {},
      onReverted: async () => {},
    },
  ]);
}
