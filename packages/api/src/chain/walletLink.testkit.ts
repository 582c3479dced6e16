/** Linking a user's own wallet and following moves home, as an integrator's tests do it. */
import { collectiblesAbi } from "@collectibles/contracts";
import type { Address, PublicClient } from "viem";
import type { LocalAccount } from "viem/accounts";
import { expect } from "vitest";
import { until } from "../test/faults.ts";
import type { CallOptions, CallResult } from "../test/testApp.ts";

type Call = (method: string, path: string, options?: CallOptions) => Promise<CallResult>;

/** Asks for a nonce for `account`'s address and answers the message and its signature. */
export async function proofOf(call: Call, userId: string, account: LocalAccount) {
  const issued = await call("POST", `/users/${userId}/wallet-link-nonces`, {
    json: { address: account.address },
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  const message: string = issued.body.data.message;
  return { message, signature: await account.signMessage({ message }), nonce: issued.body.data };
}

/** Links `account` as the user's wallet with a valid proof. */
export async function linkWallet(call: Call, userId: string, account: LocalAccount) {
  const proof = await proofOf(call, userId, account);
  const linked = await call("POST", `/users/${userId}/wallet-link`, {
    json: { message: proof.message, signature: proof.signature },
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  return linked.body.data;
}

/** The user's moves once none is under way. */
export function movesSettled(call: Call, userId: string) {
  return until("the moves home settled", async () => {
    const res = await call("GET", `/users/${userId}/transfers-home`);
    const moves = res.body.data as { status: string; claim_id: string }[];
    return moves.every((move) => move.status === "confirmed" || move.status === "failed")
      ? moves
      : undefined;
  });
}

/** Holder `owner`'s balance of the token, as the chain has it. */
export function balanceOf(client: PublicClient, contract: Address, owner: string, token: string) {
  return client.readContract({
    abi: collectiblesAbi,
    address: contract,
    functionName: "balanceOf",
    args: [owner as Address, BigInt(token)],
  });
}

/** Every transaction of blocks 0 to the head, as [from, to, value]. */
export async function transactionsOnChain(client: PublicClient) {
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const all: { from: string; to: string | null; value: bigint }[] = [];
  for (let number = 0n; number <= head; number++) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
    for (const tx of block.transactions) all.push({ from: tx.from, to: tx.to, value: tx.value });
  }
  return all;
}
