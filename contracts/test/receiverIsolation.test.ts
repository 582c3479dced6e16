/**
 * Receivers in a batch, end to end on an in-process chain with real transactions: each contract
 * receiver decides only its own claim (refusing, delegating with EIP-7702, burning gas), a batch
 * never needs more gas than `claimBatchGasCeiling`, and the editions the chain gives are the
 * order of the mint events in the receipt even when a receiver claims again from its hook.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import {
  type Address,
  createWalletClient,
  custom,
  getAddress,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import {
  claimBatchGasCeiling,
  DEFAULT_HOOK_GAS_BUDGET,
  encodeClaimRuns,
  SkipReason,
} from "../src/claimBatch.ts";
import { collectiblesAbi } from "../src/generated/collectiblesAbi.ts";
import {
  decodeTokenUri,
  deployReceiverMock,
  deployWithCollectible,
  MINTER_ROLE,
  metadata,
  newId,
  RevertType,
  tokenIdOf,
  ZERO_ADDRESS,
} from "./helpers.ts";

const { viem, networkHelpers, provider } = await network.create();

/** Hardhat's development mnemonic; account #10 is unused by the other tests' fixtures. */
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";

async function withCollectible() {
  const deployment = await deployWithCollectible(viem, 1000n);
  const receiver = async (revertType: number, single?: Hex) =>
    (await deployReceiverMock(viem, revertType, { single })).address;
  const refusing = {
    revert: await receiver(RevertType.RevertWithoutMessage),
    revertWithMessage: await receiver(RevertType.RevertWithMessage),
    customError: await receiver(RevertType.RevertWithCustomError),
    panic: await receiver(RevertType.Panic),
    wrongAnswer: await receiver(RevertType.None, "0xdeadbeef"),
    noHook: (await viem.deployContract("NonReceiverMock")).address,
  };
  const accepting = await receiver(RevertType.None);
  return { ...deployment, refusing, accepting };
}

type Outcome = { minted: bigint; to: Address } | { skipped: Hex; to: Address; reason: number };

/** Mints and skips in receipt order: what an indexer sees. */
function outcomes(receipt: TransactionReceipt): Outcome[] {
  return parseEventLogs({ abi: collectiblesAbi, logs: receipt.logs }).flatMap((log): Outcome[] => {
    if (log.eventName === "TransferSingle" && log.args.from === ZERO_ADDRESS) {
      return [{ minted: log.args.id, to: log.args.to }];
    }
    if (log.eventName === "ClaimSkipped") {
      return [{ skipped: log.args.claimId, to: log.args.to, reason: log.args.reason }];
    }
    return [];
  });
}

describe("claimBatch: contract receivers decide only their own claims", () => {
  it("skips every kind of refusing receiver with ClaimSkipped(ReceiverRefused) and mints the others with consecutive editions", async () => {
    const { collectibles, collectibleId, accounts, refusing, accepting, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const receivers: Address[] = [
      accounts.alice,
      ...Object.values(refusing),
      accepting,
      accounts.bob,
    ];
    const claims = receivers.map((to) => ({ collectibleId, claimId: newId(), to }));
    const hash = await collectibles.write.claimBatch([encodeClaimRuns(claims)], {
      account: accounts.minter,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    const minted = [claims[0], claims[7], claims[8]];
    assert.deepEqual(
      outcomes(receipt),
      claims.map((c, i) =>
        i === 0 || i >= 7
          ? { minted: tokenIdOf(collectibleId, c.claimId), to: getAddress(c.to) }
          : { skipped: c.claimId, to: getAddress(c.to), reason: SkipReason.ReceiverRefused },
      ),
    );
    for (const [i, c] of minted.entries()) {
      assert.ok(c);
      const id = tokenIdOf(collectibleId, c.claimId);
      assert.equal(await collectibles.read.editionOf([id]), BigInt(i + 1));
      assert.equal(await collectibles.read.balanceOf([c.to, id]), 1n);
    }
    for (const c of claims.slice(1, 7)) {
      assert.equal(await collectibles.read.isClaimed([collectibleId, c.claimId]), false);
    }
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 3n);
  });

  it("treats an account that delegated to a refusing contract with EIP-7702 as that contract, after it was a plain account", async () => {
    const { collectibles, collectibleId, accounts, refusing, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const user = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 10 });
    const wallet = createWalletClient({
      account: user,
      chain: hardhat,
      transport: custom(provider),
    });
    const first = { collectibleId, claimId: newId(), to: user.address };
    await collectibles.write.claimBatch([encodeClaimRuns([first])], { account: accounts.minter });
    assert.equal(
      await collectibles.read.holderOf([tokenIdOf(collectibleId, first.claimId)]),
      user.address,
    );

    const authorization = await wallet.signAuthorization({
      contractAddress: refusing.noHook,
      executor: "self",
    });
    await publicClient.waitForTransactionReceipt({
      // The delegation is set whatever the transaction calls; a plain account is the simplest target.
      hash: await wallet.sendTransaction({
        authorizationList: [authorization],
        to: accounts.alice,
      }),
    });
    assert.equal(
      (await publicClient.getCode({ address: user.address }))?.toLowerCase(),
      `0xef0100${refusing.noHook.slice(2).toLowerCase()}`,
    );

    const claims = [
      { collectibleId, claimId: newId(), to: user.address },
      { collectibleId, claimId: newId(), to: accounts.alice },
    ];
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: await collectibles.write.claimBatch([encodeClaimRuns(claims)], {
        account: accounts.minter,
      }),
    });
    assert.deepEqual(outcomes(receipt), [
      { skipped: claims[0]?.claimId, to: user.address, reason: SkipReason.ReceiverRefused },
      { minted: tokenIdOf(collectibleId, claims[1]?.claimId ?? "0x"), to: accounts.alice },
    ]);
  });

  it("skips a receiver that burns gas with ClaimSkipped(ReceiverGasExceeded), costing the batch its hook budget and little more", async () => {
    const { collectibles, collectibleId, accounts, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const burner = await viem.deployContract("GasBurnerReceiverMock", [10_000_000n]);
    const batch = async (to: Address) => {
      const claims = [
        { collectibleId, claimId: newId(), to },
        { collectibleId, claimId: newId(), to: accounts.alice },
      ];
      const receipt = await publicClient.waitForTransactionReceipt({
        hash: await collectibles.write.claimBatch([encodeClaimRuns(claims)], {
          account: accounts.minter,
        }),
      });
      return { receipt, claims };
    };
    const plain = await batch(accounts.bob);
    const burnt = await batch(burner.address);
    assert.deepEqual(outcomes(burnt.receipt)[0], {
      skipped: burnt.claims[0]?.claimId,
      to: getAddress(burner.address),
      reason: SkipReason.ReceiverGasExceeded,
    });
    const extra = burnt.receipt.gasUsed - plain.receipt.gasUsed;
    assert.ok(extra <= DEFAULT_HOOK_GAS_BUDGET + 30_000n, `the burner cost ${extra} gas more`);
  });

  it("stays within claimBatchGasCeiling when every claim burns its budget in a new contract and collectible", async () => {
    const { collectibles, accounts, publicClient, create } =
      await networkHelpers.loadFixture(withCollectible);
    const claims = [];
    for (let i = 0; i < 12; i++) {
      const collectibleId = newId();
      await create(collectibleId, 5n);
      const burner = await viem.deployContract("GasBurnerReceiverMock", [10_000_000n]);
      claims.push({ collectibleId, claimId: newId(), to: burner.address });
    }
    for (const n of [1, 12]) {
      const ceiling = claimBatchGasCeiling(n, DEFAULT_HOOK_GAS_BUDGET);
      const receipt = await publicClient.waitForTransactionReceipt({
        hash: await collectibles.write.claimBatch([encodeClaimRuns(claims.slice(0, n))], {
          account: accounts.minter,
          gas: ceiling,
        }),
      });
      assert.equal(receipt.status, "success", `a batch of ${n} with the ceiling as gas limit`);
      assert.ok(receipt.gasUsed <= ceiling, `${receipt.gasUsed} <= ${ceiling}`);
      const reasons = outcomes(receipt).map((o) => ("reason" in o ? o.reason : "minted"));
      assert.deepEqual(reasons, Array(n).fill(SkipReason.ReceiverGasExceeded));
      claims.splice(0, n, ...claims.slice(0, n).map((c) => ({ ...c, claimId: newId() })));
    }
  });
});

describe("claimBatch: editions follow the mint events", () => {
  it("gives a claim made from a receiver's hook the edition of its mint event, as editionOf and uri() say", async () => {
    // A hook that claims again needs more than the default budget.
    const { collectibles, collectibleId, accounts, publicClient } = await deployWithCollectible(
      viem,
      10n,
      1_000_000n,
    );
    const reentrant = await viem.deployContract("ReentrantMinterMock", [collectibles.address]);
    await collectibles.write.grantRole([MINTER_ROLE, reentrant.address], {
      account: accounts.admin,
    });
    const fromHook = newId();
    await reentrant.write.arm([collectibleId, fromHook, accounts.alice, false, false]);
    const claims = [reentrant.address, accounts.bob, accounts.alice].map((to) => ({
      collectibleId,
      claimId: newId(),
      to,
    }));
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: await collectibles.write.claimBatch([encodeClaimRuns(claims)], {
        account: accounts.minter,
      }),
    });
    const mints = outcomes(receipt).flatMap((o) => ("minted" in o ? [o.minted] : []));
    assert.deepEqual(mints, [
      tokenIdOf(collectibleId, claims[0]?.claimId ?? "0x"),
      tokenIdOf(collectibleId, fromHook),
      tokenIdOf(collectibleId, claims[1]?.claimId ?? "0x"),
      tokenIdOf(collectibleId, claims[2]?.claimId ?? "0x"),
    ]);
    for (const [i, id] of mints.entries()) {
      assert.equal(await collectibles.read.editionOf([id]), BigInt(i + 1));
      const json = decodeTokenUri(await collectibles.read.uri([id]));
      assert.equal(json.name, `${metadata.name} #${i + 1}`);
    }
  });
});

describe("encodeClaimRuns", () => {
  const a = newId();
  const b = newId();
  const to: Address = "0x00000000000000000000000000000000000000aa";

  it("packs consecutive claims of one collectible into one run of 36 bytes per claim", () => {
    const [c1, c2, c3] = [newId(), newId(), newId()];
    assert.deepEqual(
      encodeClaimRuns([
        { collectibleId: a, claimId: c1, to },
        { collectibleId: a, claimId: c2, to },
        { collectibleId: b, claimId: c3, to },
      ]),
      [
        { collectibleId: a, claims: `${c1}${to.slice(2)}${c2.slice(2)}${to.slice(2)}` },
        { collectibleId: b, claims: `${c3}${to.slice(2)}` },
      ],
    );
  });

  it("starts a new run whenever the collectible changes, so the order of claims is kept", () => {
    const runs = encodeClaimRuns(
      [a, b, a].map((collectibleId) => ({ collectibleId, claimId: newId(), to })),
    );
    assert.deepEqual(
      runs.map((run) => run.collectibleId),
      [a, b, a],
    );
  });

  it("refuses a claim id that is not 16 bytes or a receiver that is not an address", () => {
    assert.throws(() => encodeClaimRuns([{ collectibleId: a, claimId: "0x01", to }]), TypeError);
    assert.throws(
      () => encodeClaimRuns([{ collectibleId: a, claimId: newId(), to: "0x1234" as Address }]),
      TypeError,
    );
  });
});
