import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { type Address, getAddress, type Hex, parseEventLogs } from "viem";
import { encodeClaimRuns, SkipReason } from "../src/claimBatch.ts";
import {
  ADMIN_DELAY,
  DEFAULT_ADMIN_ROLE,
  decodeTokenUri,
  deployReceiverMock,
  deployWithCollectible,
  itRevertsEach,
  type Metadata,
  MINTER_ROLE,
  metadata,
  newId,
  ON_RECEIVED,
  RevertType,
  tokenIdOf,
  ZERO_ADDRESS,
  ZERO_ID,
} from "./helpers.ts";

const connection = await network.create();
const { viem, networkHelpers, provider } = connection;

const TOTAL = 3n;

/** A deployment with one collectible of three editions, created by the minter. */
function withCollectible() {
  return deployWithCollectible(viem, TOTAL);
}

describe("Collectibles: createCollectible", () => {
  it("stores total supply, organization, creator and metadata, readable through collectible()", async () => {
    const { collectibles, collectibleId, organizationId, creatorId } =
      await networkHelpers.loadFixture(withCollectible);
    const info = await collectibles.read.collectible([collectibleId]);
    assert.equal(info.organizationId, organizationId);
    assert.equal(info.creatorId, creatorId);
    assert.equal(info.totalSupply, TOTAL);
    assert.equal(info.claimed, 0n);
    assert.deepEqual(info.metadata, metadata);
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 0n);
    assert.equal(await collectibles.read.availableCount([collectibleId]), TOTAL);
  });

  it("emits CollectibleCreated with the three ids, the total supply and the metadata", async () => {
    const { collectibles, accounts } = await networkHelpers.loadFixture(withCollectible);
    const [id, organizationId, creatorId] = [newId(), newId(), newId()];
    await viem.assertions.emitWithArgs(
      collectibles.write.createCollectible([id, organizationId, creatorId, 10n, metadata], {
        account: accounts.minter,
      }),
      collectibles,
      "CollectibleCreated",
      [id, organizationId, creatorId, 10n, metadata],
    );
  });

  it("indexes id, organization and creator as event topics so the indexer can filter on them", async () => {
    const { collectibles } = await networkHelpers.loadFixture(withCollectible);
    const event = collectibles.abi.find(
      (item) => item.type === "event" && item.name === "CollectibleCreated",
    );
    assert.ok(event?.type === "event");
    assert.deepEqual(
      event.inputs.map((input) => [input.name, input.indexed ?? false]),
      [
        ["id", true],
        ["organizationId", true],
        ["creatorId", true],
        ["totalSupply", false],
        ["metadata", false],
      ],
    );
  });

  it("keeps supply and metadata unchanged after claims, transfers and a second create attempt", async () => {
    const { collectibles, collectibleId, accounts, claim, create } =
      await networkHelpers.loadFixture(withCollectible);
    const before = await collectibles.read.collectible([collectibleId]);
    await claim(newId());
    const claimId = newId();
    await claim(claimId);
    await collectibles.write.safeTransferFrom(
      [accounts.alice, accounts.bob, tokenIdOf(collectibleId, claimId), 1n, "0x"],
      { account: accounts.alice },
    );
    await viem.assertions.revertWithCustomErrorWithArgs(
      create(collectibleId, 100n, { ...metadata, name: "Replaced" }),
      collectibles,
      "CollectibleAlreadyExists",
      [collectibleId],
    );
    const after = await collectibles.read.collectible([collectibleId]);
    assert.deepEqual({ ...after, claimed: 0n }, before);
    assert.equal(after.claimed, 2n);
  });

  // No deployment has `unused`, so each row can create it.
  const unused = newId();
  itRevertsEach(connection, withCollectible, [
    [
      "reverts with CollectibleAlreadyExists when the id is taken",
      ({ create, collectibleId }) => [
        create(collectibleId, 5n),
        "CollectibleAlreadyExists",
        [collectibleId],
      ],
    ],
    [
      "reverts with InvalidCollectibleId when the id is zero",
      ({ create }) => [create(ZERO_ID, 5n), "InvalidCollectibleId", []],
    ],
    [
      "reverts with InvalidTotalSupply when the total supply is zero",
      ({ create }) => [create(unused, 0n), "InvalidTotalSupply", [unused]],
    ],
    [
      "reverts with EmptyName when the name is empty",
      ({ create }) => [create(unused, 5n, { ...metadata, name: "" }), "EmptyName", [unused]],
    ],
    [
      "reverts with AccessControlUnauthorizedAccount when the caller lacks MINTER_ROLE",
      ({ create, accounts }) => [
        create(unused, 5n, metadata, accounts.admin),
        "AccessControlUnauthorizedAccount",
        [accounts.admin, MINTER_ROLE],
      ],
    ],
  ]);
});

describe("Collectibles: claim", () => {
  /** Never created in any deployment. */
  const unknown = newId();

  it("mints one token with its own id to the receiver and returns that id", async () => {
    const { collectibles, collectibleId, accounts, claim } =
      await networkHelpers.loadFixture(withCollectible);
    const claimId = newId();
    const expected = tokenIdOf(collectibleId, claimId);
    const { result } = await collectibles.simulate.claim([collectibleId, claimId, accounts.alice], {
      account: accounts.minter,
    });
    assert.equal(result, expected);
    await claim(claimId);
    assert.equal(await collectibles.read.tokenIdOf([collectibleId, claimId]), expected);
    assert.equal(await collectibles.read.balanceOf([accounts.alice, expected]), 1n);
    assert.equal(await collectibles.read.holderOf([expected]), accounts.alice);
    assert.equal(await collectibles.read.isClaimed([collectibleId, claimId]), true);
  });

  it("gives every claim a different token id and numbers editions 1..total in claim order", async () => {
    const { collectibles, collectibleId, accounts, claim } =
      await networkHelpers.loadFixture(withCollectible);
    const claimIds = [newId(), newId(), newId()];
    for (const [i, claimId] of claimIds.entries()) {
      await claim(claimId, i === 1 ? accounts.bob : accounts.alice);
    }
    const tokenIds = claimIds.map((claimId) => tokenIdOf(collectibleId, claimId));
    assert.equal(new Set(tokenIds).size, 3);
    const editions = await Promise.all(tokenIds.map((id) => collectibles.read.editionOf([id])));
    assert.deepEqual(editions, [1n, 2n, 3n]);
  });

  it("counts claims: claimedCount goes up and availableCount down to zero", async () => {
    const { collectibles, collectibleId, claim } =
      await networkHelpers.loadFixture(withCollectible);
    for (let i = 1n; i <= TOTAL; i++) {
      await claim(newId());
      assert.equal(await collectibles.read.claimedCount([collectibleId]), i);
      assert.equal(await collectibles.read.availableCount([collectibleId]), TOTAL - i);
    }
  });

  it("emits exactly one TransferSingle(minter, 0x0, receiver, tokenId, 1) and no other event", async () => {
    const { collectibles, collectibleId, accounts, claim, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const claimId = newId();
    const hash = await claim(claimId);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.logs.length, 1);
    const [log] = parseEventLogs({ abi: collectibles.abi, logs: receipt.logs });
    assert.equal(log?.eventName, "TransferSingle");
    assert.deepEqual(log?.args, {
      operator: accounts.minter,
      from: ZERO_ADDRESS,
      to: accounts.alice,
      id: tokenIdOf(collectibleId, claimId),
      value: 1n,
    });
  });

  it("reverts with ClaimAlreadyMinted for a claim id seen before, so a resent claim never mints twice", async () => {
    const { collectibles, collectibleId, accounts, claim } =
      await networkHelpers.loadFixture(withCollectible);
    const claimId = newId();
    await claim(claimId);
    await viem.assertions.revertWithCustomErrorWithArgs(
      claim(claimId, accounts.bob),
      collectibles,
      "ClaimAlreadyMinted",
      [collectibleId, claimId],
    );
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 1n);
  });

  it("accepts the same claim id in another collectible, as a different token", async () => {
    const { collectibles, collectibleId, accounts, claim, create } =
      await networkHelpers.loadFixture(withCollectible);
    const other = newId();
    await create(other, 1n);
    const claimId = newId();
    await claim(claimId);
    await collectibles.write.claim([other, claimId, accounts.bob], { account: accounts.minter });
    assert.equal(
      await collectibles.read.holderOf([tokenIdOf(collectibleId, claimId)]),
      accounts.alice,
    );
    assert.equal(await collectibles.read.holderOf([tokenIdOf(other, claimId)]), accounts.bob);
  });

  itRevertsEach(connection, withCollectible, [
    [
      "reverts with CollectibleSoldOut once the total is reached",
      async ({ claim, collectibleId }) => {
        for (let i = 0n; i < TOTAL; i++) await claim(newId());
        return [claim(newId()), "CollectibleSoldOut", [collectibleId, TOTAL]];
      },
    ],
    [
      "reverts with UnknownCollectible for a collectible that was never created",
      ({ collectibles, accounts }) => [
        collectibles.write.claim([unknown, newId(), accounts.alice], { account: accounts.minter }),
        "UnknownCollectible",
        [unknown],
      ],
    ],
    [
      "reverts with ERC1155InvalidReceiver for the zero address",
      ({ claim }) => [claim(newId(), ZERO_ADDRESS), "ERC1155InvalidReceiver", [ZERO_ADDRESS]],
    ],
    [
      "reverts with InvalidClaimId for the zero claim id",
      ({ claim, collectibleId }) => [claim(ZERO_ID), "InvalidClaimId", [collectibleId]],
    ],
    [
      "reverts with ERC1155InvalidReceiver when a contract receiver answers the wrong value",
      async ({ claim }) => {
        const { address } = await deployReceiverMock(viem, RevertType.None, {
          single: "0xdeadbeef",
        });
        return [claim(newId(), address), "ERC1155InvalidReceiver", [getAddress(address)]];
      },
    ],
    [
      "reverts with ERC1155InvalidReceiver when the receiver contract has no hook",
      async ({ claim }) => {
        const { address } = await viem.deployContract("NonReceiverMock");
        return [claim(newId(), address), "ERC1155InvalidReceiver", [getAddress(address)]];
      },
    ],
  ]);

  it("reverts with AccessControlUnauthorizedAccount for a caller without MINTER_ROLE, even the admin", async () => {
    const { collectibles, collectibleId, accounts } =
      await networkHelpers.loadFixture(withCollectible);
    for (const caller of [accounts.admin, accounts.alice]) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        collectibles.write.claim([collectibleId, newId(), caller], { account: caller }),
        collectibles,
        "AccessControlUnauthorizedAccount",
        [caller, MINTER_ROLE],
      );
    }
  });

  it("mints to a contract that accepts ERC-1155 tokens and calls its hook with operator, from, id, value", async () => {
    const { collectibles, collectibleId, accounts, claim } =
      await networkHelpers.loadFixture(withCollectible);
    const receiver = await deployReceiverMock(viem, RevertType.None);
    const claimId = newId();
    await viem.assertions.emitWithArgs(claim(claimId, receiver.address), receiver, "Received", [
      accounts.minter,
      ZERO_ADDRESS,
      tokenIdOf(collectibleId, claimId),
      1n,
      "0x",
    ]);
    assert.equal(
      await collectibles.read.balanceOf([receiver.address, tokenIdOf(collectibleId, claimId)]),
      1n,
    );
  });

  it("passes on the receiver's own revert reason and counts nothing", async () => {
    const { collectibles, collectibleId, claim } =
      await networkHelpers.loadFixture(withCollectible);
    const rejecting = await deployReceiverMock(viem, RevertType.RevertWithCustomError);
    await viem.assertions.revertWithCustomErrorWithArgs(
      claim(newId(), rejecting.address),
      rejecting,
      "CustomError",
      [ON_RECEIVED],
    );
    const withMessage = await deployReceiverMock(viem, RevertType.RevertWithMessage);
    await viem.assertions.revertWith(
      claim(newId(), withMessage.address),
      "ERC1155ReceiverMock: reverting",
    );
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 0n);
  });
});

describe("Collectibles: claim to a receiver that reverts with huge data", () => {
  /** The largest hook budget: a hook needs about 750,000 gas of memory to revert with 600 kB. */
  const BUDGET = 1_000_000n;
  const HUGE = 600_000n;

  async function withLargestBudget() {
    const deployment = await deployWithCollectible(viem, 10n, BUDGET);
    const refusing = (payloadBytes: bigint, memoryBytes: bigint) =>
      viem.deployContract("LargeRevertReceiverMock", [payloadBytes, memoryBytes]);
    return {
      ...deployment,
      // Refused(bytes) with 600 kB of payload.
      huge: await refusing(HUGE, HUGE),
      // The same hook cost (600 kB of memory touched), but 100 bytes of revert data.
      sameCost: await refusing(32n, HUGE),
      // A plain refusal: 100 bytes of revert data, no memory to speak of.
      plain: await refusing(32n, 0n),
    };
  }

  /** gasUsed of a claim that reverts, mined with automine off (a reverting send would throw). */
  async function gasOfRefusedClaim(
    { collectibles, accounts, collectibleId }: Awaited<ReturnType<typeof withLargestBudget>>,
    to: Address,
  ): Promise<bigint> {
    const publicClient = await viem.getPublicClient();
    await provider.request({ method: "evm_setAutomine", params: [false] });
    try {
      const hash = await collectibles.write.claim([collectibleId, newId(), to], {
        account: accounts.minter,
        gas: 5_000_000n,
      });
      await networkHelpers.mine();
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "reverted");
      return receipt.gasUsed;
    } finally {
      await provider.request({ method: "evm_setAutomine", params: [true] });
    }
  }

  it("costs the caller nothing for the revert data: 600 kB cost what a hook of the same cost answering 100 bytes costs", async () => {
    const deployment = await networkHelpers.loadFixture(withLargestBudget);
    const { huge, sameCost, plain } = deployment;
    const hugeGas = await gasOfRefusedClaim(deployment, huge.address);
    const sameCostGas = await gasOfRefusedClaim(deployment, sameCost.address);
    const plainGas = await gasOfRefusedClaim(deployment, plain.address);
    // Both hooks pay the same ~743,000 gas for their memory, inside their budget; all that may
    // differ is what the claim does with the answer. Copying 600 kB into the claim's own memory
    // would cost it ~800,000 more (memory grows quadratically); reading the answer's size and
    // copying at most 1,024 bytes costs a few hundred.
    assert.ok(
      hugeGas <= sameCostGas + 2_000n,
      `600 kB of revert data cost the caller ${hugeGas - sameCostGas} gas more than 100 bytes`,
    );
    // So a refusal never costs more than a plain one plus the hook's budget, however large its
    // revert data (before the copy was bounded: ~1.6 M gas, 1.5 M above a plain refusal).
    assert.ok(
      hugeGas <= plainGas + BUDGET,
      `a 600 kB refusal used ${hugeGas} gas, a plain one ${plainGas}, the budget is ${BUDGET}`,
    );
  });

  it("reverts with ERC1155InvalidReceiver(to) for revert data above 1,024 bytes and passes on smaller data intact", async () => {
    const { collectibles, collectibleId, claim, huge, plain } =
      await networkHelpers.loadFixture(withLargestBudget);
    await viem.assertions.revertWithCustomErrorWithArgs(
      claim(newId(), huge.address),
      collectibles,
      "ERC1155InvalidReceiver",
      [getAddress(huge.address)],
    );
    await viem.assertions.revertWithCustomErrorWithArgs(
      claim(newId(), plain.address),
      plain,
      "Refused",
      [`0x${"00".repeat(32)}`],
    );
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 0n);
  });
});

describe("Collectibles: claimBatch", () => {
  it("mints every claim of the batch with its own token id and consecutive editions", async () => {
    const { collectibles, collectibleId, accounts } =
      await networkHelpers.loadFixture(withCollectible);
    const claims = [accounts.alice, accounts.bob, accounts.alice].map((to) => ({
      collectibleId,
      claimId: newId(),
      to,
    }));
    await collectibles.write.claimBatch([encodeClaimRuns(claims)], { account: accounts.minter });
    for (const [i, c] of claims.entries()) {
      const id = tokenIdOf(c.collectibleId, c.claimId);
      assert.equal(await collectibles.read.holderOf([id]), c.to);
      assert.equal(await collectibles.read.editionOf([id]), BigInt(i + 1));
    }
    assert.equal(await collectibles.read.availableCount([collectibleId]), 0n);
  });

  it("emits one TransferSingle per claim, in batch order", async () => {
    const { collectibles, collectibleId, accounts, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const claims = [accounts.alice, accounts.bob].map((to) => ({
      collectibleId,
      claimId: newId(),
      to,
    }));
    const hash = await collectibles.write.claimBatch([encodeClaimRuns(claims)], {
      account: accounts.minter,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    const logs = parseEventLogs({ abi: collectibles.abi, logs: receipt.logs });
    assert.deepEqual(
      logs.map((log) => [log.eventName, log.args]),
      claims.map((c) => [
        "TransferSingle",
        {
          operator: accounts.minter,
          from: ZERO_ADDRESS,
          to: c.to,
          id: tokenIdOf(c.collectibleId, c.claimId),
          value: 1n,
        },
      ]),
    );
  });

  it("mints across several collectibles in one batch", async () => {
    const { collectibles, collectibleId, accounts, create } =
      await networkHelpers.loadFixture(withCollectible);
    const other = newId();
    await create(other, 2n);
    const claims = [
      { collectibleId, claimId: newId(), to: accounts.alice },
      { collectibleId: other, claimId: newId(), to: accounts.bob },
      { collectibleId: other, claimId: newId(), to: accounts.alice },
    ];
    await collectibles.write.claimBatch([encodeClaimRuns(claims)], { account: accounts.minter });
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 1n);
    assert.equal(await collectibles.read.claimedCount([other]), 2n);
  });

  it("skips a claim id repeated inside the batch or minted before, with ClaimSkipped(AlreadyMinted)", async () => {
    const { collectibles, collectibleId, accounts, claim, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const earlier = newId();
    await claim(earlier);
    const repeated = newId();
    const claims = [
      { collectibleId, claimId: repeated, to: accounts.alice },
      { collectibleId, claimId: repeated, to: accounts.bob },
      { collectibleId, claimId: earlier, to: accounts.bob },
    ];
    const hash = await collectibles.write.claimBatch([encodeClaimRuns(claims)], {
      account: accounts.minter,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    const skipped = parseEventLogs({
      abi: collectibles.abi,
      logs: receipt.logs,
      eventName: "ClaimSkipped",
    });
    assert.deepEqual(
      skipped.map((log) => log.args),
      [
        { collectibleId, claimId: repeated, to: accounts.bob, reason: SkipReason.AlreadyMinted },
        { collectibleId, claimId: earlier, to: accounts.bob, reason: SkipReason.AlreadyMinted },
      ],
    );
    assert.equal(
      await collectibles.read.holderOf([tokenIdOf(collectibleId, repeated)]),
      accounts.alice,
    );
    assert.equal(
      await collectibles.read.holderOf([tokenIdOf(collectibleId, earlier)]),
      accounts.alice,
    );
    assert.equal(await collectibles.read.claimedCount([collectibleId]), 2n);
  });

  it("mints up to the total and skips the rest with ClaimSkipped(SoldOut)", async () => {
    const { collectibles, collectibleId, accounts, claim } =
      await networkHelpers.loadFixture(withCollectible);
    await claim(newId());
    const claims = [0, 1, 2].map(() => ({ collectibleId, claimId: newId(), to: accounts.bob }));
    const last = claims[2];
    assert.ok(last);
    await viem.assertions.emitWithArgs(
      collectibles.write.claimBatch([encodeClaimRuns(claims)], { account: accounts.minter }),
      collectibles,
      "ClaimSkipped",
      [collectibleId, last.claimId, accounts.bob, SkipReason.SoldOut],
    );
    assert.equal(await collectibles.read.claimedCount([collectibleId]), TOTAL);
    assert.equal(await collectibles.read.isClaimed([collectibleId, last.claimId]), false);
  });

  it("reverts with EmptyBatch for a batch with no claims", async () => {
    const { collectibles, accounts } = await networkHelpers.loadFixture(withCollectible);
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.claimBatch([[]], { account: accounts.minter }),
      collectibles,
      "EmptyBatch",
      [],
    );
  });

  it("reverts with UnknownCollectible, ERC1155InvalidReceiver or InvalidClaimId for a bad claim anywhere in the batch", async () => {
    const { collectibles, collectibleId, accounts } =
      await networkHelpers.loadFixture(withCollectible);
    const good = { collectibleId, claimId: newId(), to: accounts.alice };
    const unknown = newId();
    const cases = [
      [
        { collectibleId: unknown, claimId: newId(), to: accounts.alice },
        "UnknownCollectible",
        [unknown],
      ],
      [
        { collectibleId, claimId: newId(), to: ZERO_ADDRESS },
        "ERC1155InvalidReceiver",
        [ZERO_ADDRESS],
      ],
      [{ collectibleId, claimId: ZERO_ID, to: accounts.alice }, "InvalidClaimId", [collectibleId]],
    ] as const;
    for (const [bad, error, args] of cases) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        collectibles.write.claimBatch([encodeClaimRuns([good, bad])], {
          account: accounts.minter,
        }),
        collectibles,
        error,
        [...args],
      );
    }
  });

  it("reverts with MalformedClaimRun for a run whose claims are not whole 36-byte records", async () => {
    const { collectibles, collectibleId, accounts } =
      await networkHelpers.loadFixture(withCollectible);
    for (const claims of ["0x", `${newId()}${accounts.alice.slice(2)}00`] as const) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        collectibles.write.claimBatch([[{ collectibleId, claims: claims as Hex }]], {
          account: accounts.minter,
        }),
        collectibles,
        "MalformedClaimRun",
        [collectibleId, BigInt((claims.length - 2) / 2)],
      );
    }
  });

  it("reverts with AccessControlUnauthorizedAccount for a caller without MINTER_ROLE", async () => {
    const { collectibles, collectibleId, accounts } =
      await networkHelpers.loadFixture(withCollectible);
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.claimBatch(
        [encodeClaimRuns([{ collectibleId, claimId: newId(), to: accounts.bob }])],
        { account: accounts.bob },
      ),
      collectibles,
      "AccessControlUnauthorizedAccount",
      [accounts.bob, MINTER_ROLE],
    );
  });
});

describe("Collectibles: views", () => {
  it("collectible, claimedCount and availableCount revert with UnknownCollectible for an unknown id", async () => {
    const { collectibles } = await networkHelpers.loadFixture(withCollectible);
    const unknown = newId();
    for (const read of [
      collectibles.read.collectible([unknown]),
      collectibles.read.claimedCount([unknown]),
      collectibles.read.availableCount([unknown]),
    ]) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        read,
        collectibles,
        "UnknownCollectible",
        [unknown],
      );
    }
  });

  it("holderOf, editionOf and uri revert with TokenDoesNotExist for a token never minted", async () => {
    const { collectibles, collectibleId } = await networkHelpers.loadFixture(withCollectible);
    const tokenId = tokenIdOf(collectibleId, newId());
    for (const read of [
      collectibles.read.holderOf([tokenId]),
      collectibles.read.editionOf([tokenId]),
      collectibles.read.uri([tokenId]),
    ]) {
      await viem.assertions.revertWithCustomErrorWithArgs(read, collectibles, "TokenDoesNotExist", [
        tokenId,
      ]);
    }
  });

  it("isClaimed is false before the claim and for unknown collectibles", async () => {
    const { collectibles, collectibleId } = await networkHelpers.loadFixture(withCollectible);
    assert.equal(await collectibles.read.isClaimed([collectibleId, newId()]), false);
    assert.equal(await collectibles.read.isClaimed([newId(), newId()]), false);
  });
});

describe("Collectibles: uri", () => {
  /** Creates a collectible of one edition with `meta`, claims it, and decodes that token's uri. */
  async function uriOfOnlyEdition(meta: Metadata) {
    const { collectibles, accounts, create } = await networkHelpers.loadFixture(withCollectible);
    const [id, claimId] = [newId(), newId()];
    await create(id, 1n, meta);
    await collectibles.write.claim([id, claimId, accounts.alice], { account: accounts.minter });
    return { id, json: decodeTokenUri(await collectibles.read.uri([tokenIdOf(id, claimId)])) };
  }

  it("returns base64 JSON metadata: name '<name> #<edition>', description, image and properties", async () => {
    const { collectibles, collectibleId, claim } =
      await networkHelpers.loadFixture(withCollectible);
    await claim(newId());
    const claimId = newId();
    await claim(claimId);
    const json = decodeTokenUri(await collectibles.read.uri([tokenIdOf(collectibleId, claimId)]));
    assert.deepEqual(json, {
      name: "Genesis Pass #2",
      description: metadata.description,
      image: metadata.image,
      properties: {
        edition: 2,
        total_supply: 3,
        mime_type: metadata.mimeType,
        collectible_id: collectibleId,
      },
    });
  });

  it("escapes quotes, backslashes and control characters so the JSON parses back to the same text", async () => {
    const tricky = {
      name: 'The "Quoted" \\ Backslash\tTab',
      description: 'Line one\nLine two "with quotes" and \\n literally, \u0001 and </script>',
      image: 'https://example.com/a"b\\c.png',
      mimeType: "image/svg+xml",
    };
    const { id, json } = await uriOfOnlyEdition(tricky);
    assert.equal(json.name, `${tricky.name} #1`);
    assert.equal(json.description, tricky.description);
    assert.equal(json.image, tricky.image);
    assert.deepEqual(json.properties, {
      edition: 1,
      total_supply: 1,
      mime_type: tricky.mimeType,
      collectible_id: id,
    });
  });

  it("keeps non-ASCII names intact", async () => {
    const name = "Café Ünïcødé 🎟️ 限定";
    const { json } = await uriOfOnlyEdition({ ...metadata, name });
    assert.equal(json.name, `${name} #1`);
  });

  it("stays the same after the token changes hands", async () => {
    const { collectibles, collectibleId, accounts, claim } =
      await networkHelpers.loadFixture(withCollectible);
    const claimId = newId();
    await claim(claimId);
    const tokenId = tokenIdOf(collectibleId, claimId);
    const before = await collectibles.read.uri([tokenId]);
    await collectibles.write.safeTransferFrom([accounts.alice, accounts.bob, tokenId, 1n, "0x"], {
      account: accounts.alice,
    });
    assert.equal(await collectibles.read.uri([tokenId]), before);
  });
});

describe("Collectibles: roles", () => {
  it("grants DEFAULT_ADMIN_ROLE to the admin and MINTER_ROLE to the minter, with the admin delay", async () => {
    const { collectibles, accounts } = await networkHelpers.loadFixture(withCollectible);
    assert.equal(await collectibles.read.defaultAdmin(), accounts.admin);
    assert.equal(await collectibles.read.defaultAdminDelay(), ADMIN_DELAY);
    assert.equal(await collectibles.read.MINTER_ROLE(), MINTER_ROLE);
    assert.equal(await collectibles.read.hasRole([MINTER_ROLE, accounts.minter]), true);
    assert.equal(await collectibles.read.hasRole([MINTER_ROLE, accounts.admin]), false);
    assert.equal(await collectibles.read.hasRole([DEFAULT_ADMIN_ROLE, accounts.minter]), false);
  });

  it("lets the admin grant and revoke MINTER_ROLE, and only the admin", async () => {
    const { collectibles, collectibleId, accounts } =
      await networkHelpers.loadFixture(withCollectible);
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.grantRole([MINTER_ROLE, accounts.bob], { account: accounts.minter }),
      collectibles,
      "AccessControlUnauthorizedAccount",
      [accounts.minter, DEFAULT_ADMIN_ROLE],
    );
    await viem.assertions.emitWithArgs(
      collectibles.write.grantRole([MINTER_ROLE, accounts.bob], { account: accounts.admin }),
      collectibles,
      "RoleGranted",
      [MINTER_ROLE, accounts.bob, accounts.admin],
    );
    await collectibles.write.claim([collectibleId, newId(), accounts.bob], {
      account: accounts.bob,
    });
    await collectibles.write.revokeRole([MINTER_ROLE, accounts.bob], { account: accounts.admin });
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.claim([collectibleId, newId(), accounts.bob], { account: accounts.bob }),
      collectibles,
      "AccessControlUnauthorizedAccount",
      [accounts.bob, MINTER_ROLE],
    );
  });

  it("transfers the default admin in two steps, accepted only after the delay", async () => {
    const { collectibles, accounts } = await networkHelpers.loadFixture(withCollectible);
    await collectibles.write.beginDefaultAdminTransfer([accounts.operator], {
      account: accounts.admin,
    });
    const [pending, schedule] = await collectibles.read.pendingDefaultAdmin();
    assert.equal(pending, accounts.operator);
    assert.equal(await collectibles.read.defaultAdmin(), accounts.admin, "nothing changes yet");

    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.acceptDefaultAdminTransfer({ account: accounts.operator }),
      collectibles,
      "AccessControlEnforcedDefaultAdminDelay",
      [schedule],
    );
    await networkHelpers.time.increaseTo(schedule + 1);
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.acceptDefaultAdminTransfer({ account: accounts.outsider }),
      collectibles,
      "AccessControlInvalidDefaultAdmin",
      [accounts.outsider],
    );
    await collectibles.write.acceptDefaultAdminTransfer({ account: accounts.operator });
    assert.equal(await collectibles.read.defaultAdmin(), accounts.operator);
    assert.equal(await collectibles.read.hasRole([DEFAULT_ADMIN_ROLE, accounts.admin]), false);
  });

  it("refuses to grant DEFAULT_ADMIN_ROLE directly", async () => {
    const { collectibles, accounts } = await networkHelpers.loadFixture(withCollectible);
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.write.grantRole([DEFAULT_ADMIN_ROLE, accounts.operator], {
        account: accounts.admin,
      }),
      collectibles,
      "AccessControlEnforcedDefaultAdminRules",
      [],
    );
  });

  it("gives no role a way to move or burn a holder's token", async () => {
    const { collectibles, collectibleId, accounts, claim, publicClient } =
      await networkHelpers.loadFixture(withCollectible);
    const claimId = newId();
    await claim(claimId);
    const tokenId = tokenIdOf(collectibleId, claimId);
    for (const caller of [accounts.admin, accounts.minter]) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        collectibles.write.safeTransferFrom([accounts.alice, caller, tokenId, 1n, "0x"], {
          account: caller,
        }),
        collectibles,
        "ERC1155MissingApprovalForAll",
        [caller, accounts.alice],
      );
      await viem.assertions.revertWithCustomErrorWithArgs(
        collectibles.write.safeBatchTransferFrom([accounts.alice, caller, [tokenId], [1n], "0x"], {
          account: caller,
        }),
        collectibles,
        "ERC1155MissingApprovalForAll",
        [caller, accounts.alice],
      );
      // No burn entry point exists: a call with burn's selector is refused by the dispatcher.
      await assert.rejects(
        publicClient.call({
          account: caller,
          to: collectibles.address,
          data: `0xf5298aca${accounts.alice.slice(2).padStart(64, "0")}${tokenId.toString(16).padStart(64, "0")}${"1".padStart(64, "0")}`,
        }),
      );
    }
    assert.equal(await collectibles.read.holderOf([tokenId]), accounts.alice);
  });
});
