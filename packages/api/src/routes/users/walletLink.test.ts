/**
 * A user proves a wallet of their own with a Sign-In with Ethereum signature over a nonce this
 * API issued for them, and it becomes their linked wallet (where their tokens can move home:
 * transfersHome.test.ts). Every refusal names what was wrong.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from "viem/siwe";
import { beforeAll, expect, it } from "vitest";
import { proofOf } from "../../chain/walletLink.testkit.ts";
import { testAppPerFile } from "../../test/perFile.ts";

const t = testAppPerFile();
const org = { id: "" };
beforeAll(async () => {
  const res = await t.call("POST", "/organizations", { json: { name: "Homeward" } });
  org.id = res.body.data.id;
});
const call: typeof t.call = (...args) => t.call(...args);
const newWallet = () => privateKeyToAccount(generatePrivateKey());

async function createUser(email: string): Promise<{ id: string; wallet_address: string }> {
  const res = await call("POST", "/users", { json: { organization_id: org.id, email } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The message of `proof` with some fields changed, as another site or chain would ask. */
function altered(message: string, changes: Record<string, unknown>): string {
  const fields = parseSiweMessage(message);
  return createSiweMessage({ ...fields, ...changes } as Parameters<typeof createSiweMessage>[0]);
}

async function refusal(userId: string, message: string, signature: string) {
  const res = await call("POST", `/users/${userId}/wallet-link`, { json: { message, signature } });
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  return res.body.error as { code: string; message: string };
}

it("links the wallet that signed the message issued for the user: the user shows it", async () => {
  const user = await createUser("linker@example.com");
  const own = newWallet();
  const proof = await proofOf(call, user.id, own);
  const fields = parseSiweMessage(proof.message);
  expect(fields).toMatchObject({
    address: own.address,
    domain: new URL(t.url).host,
    uri: new URL(t.url).origin,
    chainId: 31337,
    nonce: proof.nonce.nonce,
    version: "1",
  });
  expect(fields.expirationTime?.toISOString()).toBe(proof.nonce.expires_at);
  const linked = await call("POST", `/users/${user.id}/wallet-link`, {
    json: { message: proof.message, signature: proof.signature },
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  expect(linked.body.data).toMatchObject({
    id: user.id,
    wallet_address: user.wallet_address,
    linked_wallet: own.address,
  });
  expect(Date.parse(linked.body.data.linked_at)).toBeGreaterThan(Date.now() - 60_000);
  const read = await call("GET", `/users/${user.id}`);
  expect(read.body.data.linked_wallet).toBe(own.address);
  // Integrators are told: a user.wallet_linked event with the user as GET answers it.
  const feed = await call("GET", "/events?limit=100");
  const linkedEvents = feed.body.data.filter(
    (e: { type: string; data: { id: string } }) =>
      e.type === "user.wallet_linked" && e.data.id === user.id,
  );
  expect(linkedEvents).toHaveLength(1);
  expect(linkedEvents[0].data).toMatchObject({ id: user.id, linked_wallet: own.address });
});

it("issues nonces no one can foretell: each new, and none the one before shifted by a character", async () => {
  const users = [
    await createUser("nonces-a@example.com"),
    await createUser("nonces-b@example.com"),
  ];
  const nonces: string[] = [];
  for (let i = 0; i < 40; i++) {
    const user = users[i % 2] as { id: string };
    const res = await call("POST", `/users/${user.id}/wallet-link-nonces`, {
      json: { address: newWallet().address },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    nonces.push(res.body.data.nonce);
  }
  // EIP-4361: at least 8 alphanumeric characters; these are 96 hex characters (384 bits).
  for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{96}$/);
  expect(new Set(nonces).size).toBe(nonces.length);
  nonces.slice(1).forEach((nonce, i) => {
    const before = nonces[i] as string;
    expect(nonce.slice(0, -1), `nonce ${i + 1} is nonce ${i} shifted`).not.toBe(before.slice(1));
  });
  // Nor do any two share a run of 16 characters (a window slid further over one source would).
  const runs = new Map<string, number>();
  nonces.forEach((nonce, n) => {
    for (let at = 0; at + 16 <= nonce.length; at++) {
      const run = nonce.slice(at, at + 16);
      const seen = runs.get(run);
      expect(seen === undefined || seen === n, `nonces ${seen} and ${n} share ${run}`).toBe(true);
      runs.set(run, n);
    }
  });
});

it("refuses a replayed proof: its nonce is used (nonce_used)", async () => {
  const user = await createUser("replay@example.com");
  const own = newWallet();
  const proof = await proofOf(call, user.id, own);
  const first = await call("POST", `/users/${user.id}/wallet-link`, {
    json: { message: proof.message, signature: proof.signature },
  });
  expect(first.status).toBe(200);
  expect((await refusal(user.id, proof.message, proof.signature)).code).toBe("nonce_used");
});

it("refuses a nonce never issued for this user (nonce_unknown), also one issued for another user", async () => {
  const user = await createUser("unknown-nonce@example.com");
  const other = await createUser("other-nonce@example.com");
  const own = newWallet();
  const proof = await proofOf(call, user.id, own);
  const invented = altered(proof.message, { nonce: generateSiweNonce() });
  const signed = await own.signMessage({ message: invented });
  expect((await refusal(user.id, invented, signed)).code).toBe("nonce_unknown");
  expect((await refusal(other.id, proof.message, proof.signature)).code).toBe("nonce_unknown");
});

it("refuses a proof whose nonce expired (nonce_expired)", async () => {
  const user = await createUser("expired@example.com");
  const own = newWallet();
  const brief = await t.startSibling({ env: { WALLET_LINK_NONCE_TTL_SECONDS: "1" } });
  const proof = await proofOf(brief.call, user.id, own);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const res = await brief.call("POST", `/users/${user.id}/wallet-link`, {
    json: { message: proof.message, signature: proof.signature },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error.code).toBe("nonce_expired");
});

it("refuses a message signed for another site (wrong_domain) or another chain (wrong_chain)", async () => {
  const user = await createUser("elsewhere@example.com");
  const own = newWallet();
  const proof = await proofOf(call, user.id, own);
  const phishing = altered(proof.message, { domain: "collectibles.example.net" });
  const wrongDomain = await refusal(
    user.id,
    phishing,
    await own.signMessage({ message: phishing }),
  );
  expect(wrongDomain.code).toBe("wrong_domain");
  const mainnet = altered(proof.message, { chainId: 1 });
  const wrongChain = await refusal(user.id, mainnet, await own.signMessage({ message: mainnet }));
  expect(wrongChain.code).toBe("wrong_chain");
  // Neither used the nonce: the true proof still links.
  const linked = await call("POST", `/users/${user.id}/wallet-link`, {
    json: { message: proof.message, signature: proof.signature },
  });
  expect(linked.status).toBe(200);
});

it("refuses a signature by another key (wrong_signer) and another address than the nonce's (wrong_address)", async () => {
  const user = await createUser("impostor@example.com");
  const own = newWallet();
  const impostor = newWallet();
  const proof = await proofOf(call, user.id, own);
  const forged = await impostor.signMessage({ message: proof.message });
  expect((await refusal(user.id, proof.message, forged)).code).toBe("wrong_signer");
  const swapped = altered(proof.message, { address: impostor.address });
  const bySwapped = await impostor.signMessage({ message: swapped });
  expect((await refusal(user.id, swapped, bySwapped)).code).toBe("wrong_address");
});

it("answers 404 to another organization's key for the nonce, the link and the moves", async () => {
  const user = await createUser("private@example.com");
  const elsewhere = await call("POST", "/organizations", { json: { name: "Elsewhere" } });
  const key = await t.createKey(elsewhere.body.data.id);
  const own = newWallet();
  const proof = await proofOf(call, user.id, own);
  const attempts = [
    ["POST", `/users/${user.id}/wallet-link-nonces`, { address: own.address }],
    [
      "POST",
      `/users/${user.id}/wallet-link`,
      { message: proof.message, signature: proof.signature },
    ],
    ["POST", `/users/${user.id}/transfers-home`, {}],
    ["GET", `/users/${user.id}/transfers-home`, undefined],
  ] as const;
  for (const [method, path, json] of attempts) {
    const res = await call(method, path, { key, json });
    expect(res.status, `${method} ${path}`).toBe(404);
    expect(res.body.error.code).toBe("user_not_found");
  }
});
