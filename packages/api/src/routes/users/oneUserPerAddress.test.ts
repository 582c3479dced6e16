/**
 * Within an organization an address is one active user's, as the wallet_address they have or as
 * the wallet they linked: a second user can take it neither way (409 duplicate_wallet_address),
 * not even by asking at the same moment, so the tokens at a user's address keep that user as
 * their holder.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, it } from "vitest";
import { linkWallet, movesSettled, proofOf } from "../../chain/walletLink.testkit.ts";
import { flowHelpers } from "../../test/chainFlow.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile } from "../../test/perFile.ts";
import type { CallResult } from "../../test/testApp.ts";

const { t, org } = chainAppPerFile({
  organization: "One user per address",
  env: { CONFIRM_TIMEOUT_MS: "60000" },
});
const { createCollectible, createUser } = flowHelpers(t, org);
const call: typeof t.call = (...args) => t.call(...args);
const newWallet = () => privateKeyToAccount(generatePrivateKey());

type Claim = { id: string; holder_id: string; claimed_by_id: string; updated_at: string };

/** A confirmed claim of a new collectible by the user. */
async function claimBy(userId: string): Promise<Claim> {
  const collectible = await createCollectible({ name: `Kept by ${userId}`, total_count: 2 });
  const res = await call("POST", "/claims", {
    json: { collectible_id: collectible.id, holder_id: userId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function claimsAt(address: string): Promise<Claim[]> {
  const res = await call("GET", `/claims?holder_wallet_address=${address}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

function expectTaken(res: CallResult, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.error.code).toBe("duplicate_wallet_address");
  expect(res.body.error.details[0].field).toBe(field);
}

/** POST …/wallet-link with a proof of `account`'s address made for the user. */
async function link(userId: string, proof: { message: string; signature: string }) {
  return call("POST", `/users/${userId}/wallet-link`, {
    json: { message: proof.message, signature: proof.signature },
  });
}

it("refuses a new user whose wallet_address another user linked: the tokens moved home there stay that user's", async () => {
  const ada = await createUser("ada@example.com");
  const claim = await claimBy(ada.id);
  const own = newWallet();
  await linkWallet(call, ada.id, own);
  const moved = await call("POST", `/users/${ada.id}/transfers-home`, { json: {} });
  expect(moved.status, JSON.stringify(moved.body)).toBe(202);
  expect((await movesSettled(call, ada.id)).map((move) => move.status)).toEqual(["confirmed"]);
  const before = await until("the claim is held at the linked wallet", async () => {
    const held = await claimsAt(own.address);
    return held.length === 1 ? held : undefined;
  });
  expect(before[0]).toMatchObject({ id: claim.id, holder_id: ada.id, claimed_by_id: ada.id });

  const zoe = await call("POST", "/users", {
    json: { organization_id: org.id, email: "zoe@example.com", wallet_address: own.address },
  });
  expectTaken(zoe, "wallet_address");

  expect(await claimsAt(own.address)).toEqual(before);
  const users = await call("GET", `/users?organization_id=${org.id}&email=zoe@example.com`);
  expect(users.body.data).toEqual([]);
}, 180_000);

it("refuses linking an address another user has as their wallet_address, or linked already: their claims keep their holder", async () => {
  const theirs = newWallet();
  const zoe = await createUser("zoe-first@example.com", theirs.address);
  const claim = await claimBy(zoe.id);
  const ada = await createUser("ada-second@example.com");
  expectTaken(await link(ada.id, await proofOf(call, ada.id, theirs)), "message");

  const linked = newWallet();
  const bob = await createUser("bob-linked@example.com");
  await linkWallet(call, bob.id, linked);
  expectTaken(await link(ada.id, await proofOf(call, ada.id, linked)), "message");

  // Ada has no linked wallet, so nothing of hers can move to either address.
  const read = await call("GET", `/users/${ada.id}`);
  expect(read.body.data.linked_wallet).toBeNull();
  const home = await call("POST", `/users/${ada.id}/transfers-home`, { json: {} });
  expect(home.body.error?.code).toBe("no_linked_wallet");
  expect((await call("GET", `/users/${bob.id}`)).body.data.linked_wallet).toBe(linked.address);
  const held = await claimsAt(theirs.address);
  expect(held.map((c) => [c.id, c.holder_id, c.claimed_by_id])).toEqual([
    [claim.id, zoe.id, zoe.id],
  ]);
}, 180_000);

it("lets a user link their own wallet_address, another organization's user have the address, and a new user take a deleted user's", async () => {
  const own = newWallet();
  const user = await createUser("brought-own@example.com", own.address);
  expect((await linkWallet(call, user.id, own)).linked_wallet).toBe(own.address);

  const elsewhere = await call("POST", "/organizations", { json: { name: "Elsewhere" } });
  const other = await call("POST", "/users", {
    json: {
      organization_id: elsewhere.body.data.id,
      email: "x@example.com",
      wallet_address: own.address,
    },
  });
  expect(other.status, JSON.stringify(other.body)).toBe(201);

  const left = newWallet();
  const leaving = await createUser("leaving@example.com");
  await linkWallet(call, leaving.id, left);
  expect((await call("DELETE", `/users/${leaving.id}`)).status).toBe(200);
  await createUser("after@example.com", left.address);
});

it("answers exactly one of concurrent attempts at one address: two links, a link beside a creation", async () => {
  for (let round = 0; round < 5; round++) {
    const contested = newWallet();
    const [a, b] = [
      await createUser(`race-${round}-a@example.com`),
      await createUser(`race-${round}-b@example.com`),
    ];
    const [proofA, proofB] = [
      await proofOf(call, a.id, contested),
      await proofOf(call, b.id, contested),
    ];
    const links = await Promise.all([link(a.id, proofA), link(b.id, proofB)]);
    expect(links.map((res) => res.status).sort(), `round ${round}`).toEqual([200, 409]);

    const wanted = newWallet();
    const c = await createUser(`race-${round}-c@example.com`);
    const proof = await proofOf(call, c.id, wanted);
    const [linked, created] = await Promise.all([
      link(c.id, proof),
      call("POST", "/users", {
        json: {
          organization_id: org.id,
          email: `race-${round}-d@example.com`,
          wallet_address: wanted.address,
        },
      }),
    ]);
    const statuses = [linked.status, created.status];
    expect(
      statuses.filter((status) => status === 409),
      `round ${round}`,
    ).toHaveLength(1);
    expect([200, 201], `round ${round}`).toContain(Math.min(...statuses));
  }
}, 120_000);
