/**
 * A token moving on-chain after its claim, as a holder would move it from their own wallet: the
 * claim's holder follows (holder_wallet_address, holder_id), `?holder_wallet_address=` finds it
 * at its new holder and no longer at the old one, and a `claim.transferred` event goes out by
 * webhook and in the feed for every move. A move a reorg takes back is taken back too, once,
 * even with a second process's follower that read the indexer before the reorg.
 */
import { collectiblesAbi } from "@collectibles/contracts";
import { createIndexerReader, type IndexerReader } from "@collectibles/indexer/reader";
import { Webhook as Verifier } from "standardwebhooks";
import type { Address } from "viem";
import { expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { chainAccounts, devAccount } from "../test/chainAccounts.ts";
import { flowHelpers } from "../test/chainFlow.ts";
import { until } from "../test/faults.ts";
import { wholeFeed } from "../test/feed.ts";
import { chainAppPerFile, webhookReceiverPerFile } from "../test/perFile.ts";
import { startTransferFollower } from "./transferFollower.ts";

const { t, stack, org } = chainAppPerFile({
  organization: "Movers",
  env: { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1", WEBHOOK_RETRY_BASE_MS: "500" },
});
const { createCollectible, createUser } = flowHelpers(t, org);

const receiver = webhookReceiverPerFile();

// Development accounts of their own (funded, not the relayer's #0), each a holder's own wallet.
const first = devAccount(17);
const second = devAccount(18);
const outsider = devAccount(19);
const orderedHolder = devAccount(16);
const reorgedHolder = devAccount(15);
const reorgedReceiver = devAccount(14);
const straddledHolder = devAccount(13);
const straddledReceiver = devAccount(12);

/** Account `fromIndex` sends the token to `to` with the standard ERC-1155 call; its receipt. */
async function transfer(fromIndex: number, to: Address, tokenId: string) {
  const on = chainAccounts(stack.rpcUrl);
  const from = devAccount(fromIndex).address;
  const hash = await on.walletOf(fromIndex).writeContract({
    address: stack.contract,
    abi: collectiblesAbi,
    functionName: "safeTransferFrom",
    args: [from, to, BigInt(tokenId), 1n, "0x"],
  });
  const receipt = await on.client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** The holders the feed's `claim.transferred` events told of for `claimId`, in feed order. */
async function holdersTold(claimId: string): Promise<string[]> {
  const feed = await wholeFeed(async (path) => {
    const page = await t.call("GET", path);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    return page.body;
  });
  return feed
    .filter((event) => event.type === "claim.transferred" && event.data.id === claimId)
    .map((event) => event.data.holder_wallet_address);
}

const claimsHeldBy = async (address: string) => {
  const res = await t.call("GET", `/claims?holder_wallet_address=${address}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((claim: { id: string }) => claim.id) as string[];
};

/**
 * A user holding `holderIndex`'s development account claims a token of a new collectible, then
 * sends it to `to`; resolves once the API has taken the move in, with the user, claim and move.
 */
async function claimedThenMoved(name: string, holderIndex: number, to: Address) {
  const holder = await createUser(`${name}@example.com`, devAccount(holderIndex).address);
  const collectible = await createCollectible({ name, total_count: 5 });
  const claimed = await t.call("POST", "/claims", {
    json: { collectible_id: collectible.id, holder_id: holder.id },
  });
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
  const claim = claimed.body.data;
  const moved = await transfer(holderIndex, to, claim.token_id);
  await until("the move taken in", async () =>
    (await claimsHeldBy(to)).includes(claim.id) ? true : undefined,
  );
  return { holder, claim, moved };
}

/** Every delivery to `/<path>` about `claimId` (each attempt), oldest first. */
const deliveriesAbout = (path: string, claimId: string) =>
  receiver.deliveries.filter(
    (d) => d.path === `/${path}` && JSON.parse(d.body).data?.id === claimId,
  );

/** The claim.transferred deliveries about `claimId`, verified, oldest first. */
const transfersDelivered = (secret: string, claimId: string, path = "moves") =>
  deliveriesAbout(path, claimId).map(
    (d) => new Verifier(secret).verify(d.body, d.headers) as { type: string; data: never },
  );

it("follows a token its holder sends on: filters find it at the new holder and a claim.transferred goes out per move", async () => {
  const hook = await t.call("POST", "/webhooks", {
    json: { url: `${receiver.url}/moves`, event_types: ["claim.transferred"] },
  });
  expect(hook.status).toBe(201);
  const secret: string = hook.body.data.secret;
  const { id: firstId } = await createUser("first@example.com", first.address);
  const { id: secondId } = await createUser("second@example.com", second.address);
  const collectible = await createCollectible({ name: "Passed on", total_count: 5 });
  const claimed = await t.call("POST", "/claims", {
    json: { collectible_id: collectible.id, holder_id: firstId },
  });
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
  const claim = claimed.body.data;
  expect(await claimsHeldBy(first.address.toLowerCase())).toEqual([claim.id]);

  await transfer(17, second.address, claim.token_id);
  const [moved] = await until("the first move delivered", async () => {
    const found = transfersDelivered(secret, claim.id);
    return found.length > 0 ? found : undefined;
  });
  expect(moved).toMatchObject({
    type: "claim.transferred",
    data: { id: claim.id, holder_wallet_address: second.address, holder_id: secondId },
  });
  // As claimed, unchanged.
  expect(moved?.data).toMatchObject({ claimed_by_id: firstId, minted_to: first.address });
  expect(await claimsHeldBy(second.address)).toEqual([claim.id]);
  expect(await claimsHeldBy(first.address)).toEqual([]);

  // On to an address that is no user of the organization.
  await transfer(18, outsider.address, claim.token_id);
  const moves = await until("the second move delivered", async () => {
    const found = transfersDelivered(secret, claim.id);
    return found.length > 1 ? found : undefined;
  });
  expect(moves).toHaveLength(2);
  expect(moves[1]).toMatchObject({
    data: { holder_wallet_address: outsider.address, holder_id: null },
  });
  expect(await claimsHeldBy(outsider.address.toLowerCase())).toEqual([claim.id]);
  expect(await claimsHeldBy(second.address)).toEqual([]);

  expect(await holdersTold(claim.id)).toEqual([second.address, outsider.address]);
}, 180_000);

it("sends one claim's messages in order: its transfer waits until its confirmation is delivered", async () => {
  const hook = await t.call("POST", "/webhooks", {
    json: { url: `${receiver.url}/ordered`, event_types: ["claim.confirmed", "claim.transferred"] },
  });
  expect(hook.status).toBe(201);
  const holder = await createUser("ordered@example.com", orderedHolder.address);
  const collectible = await createCollectible({ name: "In order", total_count: 5 });
  // The receiver refuses the first three deliveries (retried after ~0.5, 1 and 2 s): the token
  // moves meanwhile, and its message must wait behind the confirmation.
  let refused = 0;
  receiver.answer = (d) => (d.path === "/ordered" && refused++ < 3 ? 500 : 200);
  const claimed = await t.call("POST", "/claims", {
    json: { collectible_id: collectible.id, holder_id: holder.id },
  });
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
  const claim = claimed.body.data;
  await transfer(16, outsider.address, claim.token_id);
  const received = await until("both messages delivered", async () => {
    const about = deliveriesAbout("ordered", claim.id).map((d) => JSON.parse(d.body).type);
    return about.includes("claim.transferred") ? about : undefined;
  });
  // Every attempt at the confirmation (three refused, one accepted) came before the transfer.
  expect(received).toEqual([
    "claim.confirmed",
    "claim.confirmed",
    "claim.confirmed",
    "claim.confirmed",
    "claim.transferred",
  ]);
}, 180_000);

it("takes a move back when a reorg drops it: the token is found at its first holder again, and a claim.transferred says so", async () => {
  const hook = await t.call("POST", "/webhooks", {
    json: { url: `${receiver.url}/reorged`, event_types: ["claim.transferred"] },
  });
  expect(hook.status).toBe(201);
  const secret: string = hook.body.data.secret;
  const { holder, claim, moved } = await claimedThenMoved("reorged", 15, reorgedReceiver.address);
  const chain = chainAccounts(stack.rpcUrl).client;
  // The move's block is the head: replace it with an empty one, the move dropped.
  expect(await chain.getBlockNumber()).toBe(moved.blockNumber);
  await chain.request({ method: "anvil_reorg", params: [1, []] } as never);
  // The chain goes on, as a real one does: the indexer sees the reorg with the next block.
  await chain.request({ method: "evm_mine", params: [] } as never);

  await until(
    "the token found at its first holder again",
    async () => ((await claimsHeldBy(reorgedHolder.address)).includes(claim.id) ? true : undefined),
    { timeoutMs: 60_000 },
  );
  expect(await claimsHeldBy(reorgedReceiver.address)).toEqual([]);
  const got = await t.call("GET", `/claims/${claim.id}`);
  expect(got.body.data).toMatchObject({
    holder_wallet_address: reorgedHolder.address,
    holder_id: holder.id,
  });
  const told = await until("both moves delivered", async () => {
    const found = transfersDelivered(secret, claim.id, "reorged");
    return found.length > 1 ? found : undefined;
  });
  expect(
    told.map((m) => (m.data as { holder_wallet_address: string }).holder_wallet_address),
  ).toEqual([reorgedReceiver.address, reorgedHolder.address]);
}, 180_000);

it("tells of a move a reorg takes back once each way, with a second process's follower that read the indexer before the reorg", async () => {
  const { claim, moved } = await claimedThenMoved("straddled", 13, straddledReceiver.address);

  // A second process's follower, on the same database and indexer. Once its read of the moved
  // tokens has the move, the read is held back until the reorg has happened: its round records
  // what the indexer told before the reorg, after it.
  const indexer = createIndexerReader({ url: stack.indexerUrl });
  let readTheMove: () => void = () => {};
  const moveRead = new Promise<void>((resolve) => {
    readTheMove = resolve;
  });
  let letGo: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  const heldBack: IndexerReader = {
    ...indexer,
    async claimsMovedBetween(...args) {
      const tokens = await indexer.claimsMovedBetween(...args);
      if (tokens.some((token) => token.id === claim.id)) {
        readTheMove();
        await held;
      }
      return tokens;
    },
  };
  const chain = chainAccounts(stack.rpcUrl).client;
  const second = startTransferFollower({
    database: t.database,
    indexer: heldBack,
    chain: { finalizedBlock: async () => (await chain.getBlock({ blockTag: "finalized" })).number },
    finalityDepth: 64,
    logger: createLogger({ level: "silent" }),
  });
  try {
    await moveRead;
    expect(await chain.getBlockNumber()).toBe(moved.blockNumber);
    await chain.request({ method: "anvil_reorg", params: [1, []] } as never);
    await chain.request({ method: "evm_mine", params: [] } as never);
    await until(
      "the indexer past the reorg: the token at its first holder",
      async () => {
        const [token] = (await indexer.claimsByIds([claim.id])).values();
        return token?.holder.toLowerCase() === straddledHolder.address.toLowerCase()
          ? true
          : undefined;
      },
      { timeoutMs: 60_000 },
    );
    // Rounds of the app's own follower (one a second) have their turn here: before rounds took
    // turns, the app recorded the first holder now, and the held round then recorded the move
    // again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    letGo();
    await until(
      "the token found at its first holder again",
      async () =>
        (await claimsHeldBy(straddledHolder.address)).includes(claim.id) ? true : undefined,
      { timeoutMs: 60_000 },
    );
    // A few more rounds of both followers: nothing more to tell.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  } finally {
    letGo();
    await second.stop();
  }
  expect(await holdersTold(claim.id)).toEqual([straddledReceiver.address, straddledHolder.address]);
}, 180_000);
