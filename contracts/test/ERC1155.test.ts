/**
 * ERC-1155 behaviour of Collectibles, checked the way OpenZeppelin checks its own ERC1155
 * (test/token/ERC1155/ERC1155.behavior.js): balances, approvals, single and batch transfers with
 * their events and receiver hooks, and ERC-165.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { type Address, getAddress, type Hex, parseEventLogs } from "viem";
import { encodeClaimRuns } from "../src/claimBatch.ts";
import {
  deployReceiverMock,
  deployWithCollectible,
  itRevertsEach,
  newId,
  ON_BATCH_RECEIVED,
  ON_RECEIVED,
  RevertType,
  tokenIdOf,
  ZERO_ADDRESS,
} from "./helpers.ts";

const connection = await network.create();
const { viem, networkHelpers } = connection;

/** Alice holds two tokens of one collectible; a third id of it is never minted. */
async function withTokens() {
  const deployment = await deployWithCollectible(viem, 10n);
  const { collectibles, collectibleId, accounts } = deployment;
  const [claim1, claim2] = [newId(), newId()];
  // Minted as the relayer mints: one claimBatch.
  await collectibles.write.claimBatch(
    [
      encodeClaimRuns([
        { collectibleId, claimId: claim1, to: accounts.alice },
        { collectibleId, claimId: claim2, to: accounts.alice },
      ]),
    ],
    { account: accounts.minter },
  );
  // `by` signs; by default the holder `from` itself.
  type Options = { by?: Address; data?: Hex };
  const transfer = (
    from: Address,
    to: Address,
    id: bigint,
    { by = from, data = "0x", value = 1n }: Options & { value?: bigint } = {},
  ) => collectibles.write.safeTransferFrom([from, to, id, value, data], { account: by });
  const batchTransfer = (
    from: Address,
    to: Address,
    ids: bigint[],
    values: bigint[],
    { by = from, data = "0x" }: Options = {},
  ) => collectibles.write.safeBatchTransferFrom([from, to, ids, values, data], { account: by });
  const approve = (holder: Address, operator: Address, approved = true) =>
    collectibles.write.setApprovalForAll([operator, approved], { account: holder });
  return {
    ...deployment,
    token1: tokenIdOf(collectibleId, claim1),
    token2: tokenIdOf(collectibleId, claim2),
    unminted: tokenIdOf(collectibleId, newId()),
    transfer,
    batchTransfer,
    approve,
  };
}

describe("ERC-1155: balanceOf", () => {
  it("is 1 for the holder and 0 for anyone else, for unminted ids and for the zero address", async () => {
    const { collectibles, accounts, token1, unminted } =
      await networkHelpers.loadFixture(withTokens);
    assert.equal(await collectibles.read.balanceOf([accounts.alice, token1]), 1n);
    assert.equal(await collectibles.read.balanceOf([accounts.bob, token1]), 0n);
    assert.equal(await collectibles.read.balanceOf([accounts.alice, unminted]), 0n);
    assert.equal(await collectibles.read.balanceOf([ZERO_ADDRESS, unminted]), 0n);
    assert.equal(await collectibles.read.balanceOf([ZERO_ADDRESS, token1]), 0n);
  });
});

describe("ERC-1155: balanceOfBatch", () => {
  it("returns the balance of each (account, id) pair, in order, repeated pairs included", async () => {
    const { collectibles, accounts, token1, token2, unminted } =
      await networkHelpers.loadFixture(withTokens);
    const balances = await collectibles.read.balanceOfBatch([
      [accounts.alice, accounts.bob, accounts.alice, accounts.alice, ZERO_ADDRESS],
      [token1, token1, token2, token2, unminted],
    ]);
    assert.deepEqual(balances, [1n, 0n, 1n, 1n, 0n]);
  });

  it("returns an empty list for empty input", async () => {
    const { collectibles } = await networkHelpers.loadFixture(withTokens);
    assert.deepEqual(await collectibles.read.balanceOfBatch([[], []]), []);
  });

  it("reverts with ERC1155InvalidArrayLength(ids, accounts) when the lengths differ", async () => {
    const { collectibles, accounts, token1, token2 } = await networkHelpers.loadFixture(withTokens);
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.read.balanceOfBatch([[accounts.alice], [token1, token2]]),
      collectibles,
      "ERC1155InvalidArrayLength",
      [2n, 1n],
    );
    await viem.assertions.revertWithCustomErrorWithArgs(
      collectibles.read.balanceOfBatch([[accounts.alice, accounts.bob], [token1]]),
      collectibles,
      "ERC1155InvalidArrayLength",
      [1n, 2n],
    );
  });
});

describe("ERC-1155: setApprovalForAll", () => {
  it("approves and revokes an operator, emitting ApprovalForAll each time", async () => {
    const { collectibles, accounts, approve } = await networkHelpers.loadFixture(withTokens);
    for (const approved of [true, false]) {
      await viem.assertions.emitWithArgs(
        approve(accounts.alice, accounts.operator, approved),
        collectibles,
        "ApprovalForAll",
        [accounts.alice, accounts.operator, approved],
      );
      assert.equal(
        await collectibles.read.isApprovedForAll([accounts.alice, accounts.operator]),
        approved,
      );
      assert.equal(
        await collectibles.read.isApprovedForAll([accounts.bob, accounts.operator]),
        false,
        "only for the caller",
      );
    }
  });

  it("reverts with ERC1155InvalidOperator for the zero address", async () => {
    const { collectibles, accounts, approve } = await networkHelpers.loadFixture(withTokens);
    await viem.assertions.revertWithCustomErrorWithArgs(
      approve(accounts.alice, ZERO_ADDRESS),
      collectibles,
      "ERC1155InvalidOperator",
      [ZERO_ADDRESS],
    );
  });
});

describe("ERC-1155: safeTransferFrom", () => {
  it("moves the token when the holder calls, emitting TransferSingle(holder, holder, to, id, 1)", async () => {
    const { collectibles, accounts, token1, transfer } =
      await networkHelpers.loadFixture(withTokens);
    await viem.assertions.emitWithArgs(
      transfer(accounts.alice, accounts.bob, token1),
      collectibles,
      "TransferSingle",
      [accounts.alice, accounts.alice, accounts.bob, token1, 1n],
    );
    assert.equal(await collectibles.read.balanceOf([accounts.alice, token1]), 0n);
    assert.equal(await collectibles.read.balanceOf([accounts.bob, token1]), 1n);
    assert.equal(await collectibles.read.holderOf([token1]), accounts.bob);
    assert.equal(
      await collectibles.read.editionOf([token1]),
      1n,
      "the edition travels with the token",
    );
  });

  it("moves the token when an approved operator calls, naming the operator in TransferSingle", async () => {
    const { collectibles, accounts, token1, transfer, approve } =
      await networkHelpers.loadFixture(withTokens);
    await approve(accounts.alice, accounts.operator);
    await viem.assertions.emitWithArgs(
      transfer(accounts.alice, accounts.bob, token1, { by: accounts.operator }),
      collectibles,
      "TransferSingle",
      [accounts.operator, accounts.alice, accounts.bob, token1, 1n],
    );
    assert.equal(await collectibles.read.holderOf([token1]), accounts.bob);
  });

  it("reverts with ERC1155MissingApprovalForAll(caller, from) for an unapproved or revoked operator", async () => {
    const { collectibles, accounts, token1, transfer, approve } =
      await networkHelpers.loadFixture(withTokens);
    const operatorIsRefused = () =>
      viem.assertions.revertWithCustomErrorWithArgs(
        transfer(accounts.alice, accounts.bob, token1, { by: accounts.operator }),
        collectibles,
        "ERC1155MissingApprovalForAll",
        [accounts.operator, accounts.alice],
      );
    await operatorIsRefused();
    await approve(accounts.alice, accounts.operator, true);
    await approve(accounts.alice, accounts.operator, false);
    await operatorIsRefused();
  });

  itRevertsEach(connection, withTokens, [
    [
      "does not let an operator approved by someone else move the holder's token",
      async ({ accounts: { alice, bob, operator }, token1, transfer, approve }) => {
        await approve(bob, operator);
        return [
          transfer(alice, bob, token1, { by: operator }),
          "ERC1155MissingApprovalForAll",
          [operator, alice],
        ];
      },
    ],
    [
      "reverts with ERC1155InsufficientBalance(from, 1, 2, id) for a value of 2",
      ({ accounts: { alice, bob }, token1, transfer }) => [
        transfer(alice, bob, token1, { value: 2n }),
        "ERC1155InsufficientBalance",
        [alice, 1n, 2n, token1],
      ],
    ],
    [
      "reverts with ERC1155InvalidReceiver for the zero address",
      ({ accounts: { alice }, token1, transfer }) => [
        transfer(alice, ZERO_ADDRESS, token1),
        "ERC1155InvalidReceiver",
        [ZERO_ADDRESS],
      ],
    ],
  ]);

  it("reverts with ERC1155InsufficientBalance(from, 0, 1, id) when from does not hold the token", async () => {
    const { collectibles, accounts, token1, unminted, transfer } =
      await networkHelpers.loadFixture(withTokens);
    for (const id of [token1, unminted]) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        transfer(accounts.bob, accounts.alice, id),
        collectibles,
        "ERC1155InsufficientBalance",
        [accounts.bob, 0n, 1n, id],
      );
    }
  });

  it("accepts a value of 0, emitting TransferSingle with value 0 and moving nothing", async () => {
    const { collectibles, accounts, token1, transfer } =
      await networkHelpers.loadFixture(withTokens);
    await viem.assertions.emitWithArgs(
      transfer(accounts.bob, accounts.alice, token1, { value: 0n }),
      collectibles,
      "TransferSingle",
      [accounts.bob, accounts.bob, accounts.alice, token1, 0n],
    );
    await transfer(accounts.alice, accounts.bob, token1, { value: 0n });
    assert.equal(await collectibles.read.holderOf([token1]), accounts.alice);
  });

  it("keeps the token with the holder on a transfer to self", async () => {
    const { collectibles, accounts, token1, transfer } =
      await networkHelpers.loadFixture(withTokens);
    await transfer(accounts.alice, accounts.alice, token1);
    assert.equal(await collectibles.read.balanceOf([accounts.alice, token1]), 1n);
  });

  it("calls onERC1155Received on a contract receiver with operator, from, id, value and data", async () => {
    const { collectibles, accounts, token1, transfer, approve } =
      await networkHelpers.loadFixture(withTokens);
    const receiver = await deployReceiverMock(viem, RevertType.None);
    await approve(accounts.alice, accounts.operator);
    await viem.assertions.emitWithArgs(
      transfer(accounts.alice, receiver.address, token1, {
        by: accounts.operator,
        data: "0xc0ffee",
      }),
      receiver,
      "Received",
      [accounts.operator, accounts.alice, token1, 1n, "0xc0ffee"],
    );
    assert.equal(await collectibles.read.holderOf([token1]), getAddress(receiver.address));
  });

  it("reverts with ERC1155InvalidReceiver when the receiver answers the wrong value or has no hook", async () => {
    const { collectibles, accounts, token1, transfer } =
      await networkHelpers.loadFixture(withTokens);
    const wrongValue = await deployReceiverMock(viem, RevertType.None, { single: "0x00c0ffee" });
    const silent = await deployReceiverMock(viem, RevertType.RevertWithoutMessage);
    const noHook = await viem.deployContract("NonReceiverMock");
    for (const receiver of [wrongValue.address, silent.address, noHook.address]) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        transfer(accounts.alice, receiver, token1),
        collectibles,
        "ERC1155InvalidReceiver",
        [getAddress(receiver)],
      );
    }
  });

  it("passes on a receiver's revert message, custom error or panic", async () => {
    const { collectibles, accounts, token1, transfer } =
      await networkHelpers.loadFixture(withTokens);
    const transferTo = (to: Address) => transfer(accounts.alice, to, token1);
    const withMessage = await deployReceiverMock(viem, RevertType.RevertWithMessage);
    await viem.assertions.revertWith(
      transferTo(withMessage.address),
      "ERC1155ReceiverMock: reverting",
    );
    const withError = await deployReceiverMock(viem, RevertType.RevertWithCustomError);
    await viem.assertions.revertWithCustomErrorWithArgs(
      transferTo(withError.address),
      withError,
      "CustomError",
      [ON_RECEIVED],
    );
    const panicking = await deployReceiverMock(viem, RevertType.Panic);
    await assert.rejects(transferTo(panicking.address), /0x12|division or modulo by zero/i);
    assert.equal(await collectibles.read.holderOf([token1]), accounts.alice);
  });
});

describe("ERC-1155: safeBatchTransferFrom", () => {
  it("moves every token and emits one TransferBatch with ids and values", async () => {
    const { collectibles, accounts, token1, token2, publicClient, batchTransfer } =
      await networkHelpers.loadFixture(withTokens);
    const hash = await batchTransfer(accounts.alice, accounts.bob, [token1, token2], [1n, 1n]);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    const logs = parseEventLogs({ abi: collectibles.abi, logs: receipt.logs });
    assert.deepEqual(
      logs.map((log) => [log.eventName, log.args]),
      [
        [
          "TransferBatch",
          {
            operator: accounts.alice,
            from: accounts.alice,
            to: accounts.bob,
            ids: [token1, token2],
            values: [1n, 1n],
          },
        ],
      ],
    );
    assert.deepEqual(
      await collectibles.read.balanceOfBatch([
        [accounts.alice, accounts.alice, accounts.bob, accounts.bob],
        [token1, token2, token1, token2],
      ]),
      [0n, 0n, 1n, 1n],
    );
  });

  it("moves only the tokens with value 1 when called by an approved operator", async () => {
    const { collectibles, accounts, token1, token2, batchTransfer, approve } =
      await networkHelpers.loadFixture(withTokens);
    await approve(accounts.alice, accounts.operator);
    await viem.assertions.emitWithArgs(
      batchTransfer(accounts.alice, accounts.bob, [token1, token2], [1n, 0n], {
        by: accounts.operator,
      }),
      collectibles,
      "TransferBatch",
      [accounts.operator, accounts.alice, accounts.bob, [token1, token2], [1n, 0n]],
    );
    assert.equal(await collectibles.read.holderOf([token1]), accounts.bob);
    assert.equal(await collectibles.read.holderOf([token2]), accounts.alice);
  });

  itRevertsEach(connection, withTokens, [
    [
      "reverts with ERC1155MissingApprovalForAll for a caller that is neither holder nor approved",
      ({ accounts: { alice, bob }, token1, token2, batchTransfer }) => [
        batchTransfer(alice, bob, [token1, token2], [1n, 1n], { by: bob }),
        "ERC1155MissingApprovalForAll",
        [bob, alice],
      ],
    ],
    [
      "reverts with ERC1155InvalidArrayLength(ids, values) when the lengths differ",
      ({ accounts: { alice, bob }, token1, token2, batchTransfer }) => [
        batchTransfer(alice, bob, [token1, token2], [1n]),
        "ERC1155InvalidArrayLength",
        [2n, 1n],
      ],
    ],
    [
      "reverts with ERC1155InsufficientBalance when the same token appears twice",
      ({ accounts: { alice, bob }, token1, batchTransfer }) => [
        batchTransfer(alice, bob, [token1, token1], [1n, 1n]),
        "ERC1155InsufficientBalance",
        [alice, 0n, 1n, token1],
      ],
    ],
    [
      "reverts with ERC1155InvalidReceiver for the zero address",
      ({ accounts: { alice }, token1, batchTransfer }) => [
        batchTransfer(alice, ZERO_ADDRESS, [token1], [1n]),
        "ERC1155InvalidReceiver",
        [ZERO_ADDRESS],
      ],
    ],
    [
      "reverts with ERC1155InvalidReceiver when the batch hook answers the wrong value",
      async ({ accounts: { alice }, token1, batchTransfer }) => {
        // Accepts single transfers but not batches: the batch hook's answer is what counts.
        const receiver = await deployReceiverMock(viem, RevertType.None, { batch: ON_RECEIVED });
        return [
          batchTransfer(alice, receiver.address, [token1], [1n]),
          "ERC1155InvalidReceiver",
          [getAddress(receiver.address)],
        ];
      },
    ],
  ]);

  it("reverts as a whole with ERC1155InsufficientBalance when one token is not held, moving none", async () => {
    const { collectibles, accounts, token1, unminted, batchTransfer } =
      await networkHelpers.loadFixture(withTokens);
    await viem.assertions.revertWithCustomErrorWithArgs(
      batchTransfer(accounts.alice, accounts.bob, [token1, unminted], [1n, 1n]),
      collectibles,
      "ERC1155InsufficientBalance",
      [accounts.alice, 0n, 1n, unminted],
    );
    assert.equal(await collectibles.read.holderOf([token1]), accounts.alice);
  });

  it("calls onERC1155BatchReceived on a contract receiver with ids, values and data", async () => {
    const { collectibles, accounts, token1, token2, batchTransfer } =
      await networkHelpers.loadFixture(withTokens);
    const receiver = await deployReceiverMock(viem, RevertType.None);
    await viem.assertions.emitWithArgs(
      batchTransfer(accounts.alice, receiver.address, [token1, token2], [1n, 1n], { data: "0x01" }),
      receiver,
      "BatchReceived",
      [accounts.alice, accounts.alice, [token1, token2], [1n, 1n], "0x01"],
    );
    assert.equal(await collectibles.read.balanceOf([receiver.address, token2]), 1n);
  });

  it("passes on the batch hook's own revert reason", async () => {
    const { accounts, token1, batchTransfer } = await networkHelpers.loadFixture(withTokens);
    const receiver = await deployReceiverMock(viem, RevertType.RevertWithCustomError);
    await viem.assertions.revertWithCustomErrorWithArgs(
      batchTransfer(accounts.alice, receiver.address, [token1], [1n]),
      receiver,
      "CustomError",
      [ON_BATCH_RECEIVED],
    );
  });
});

describe("ERC-165: supportsInterface", () => {
  const interfaces = {
    IERC165: "0x01ffc9a7",
    IERC1155: "0xd9b67a26",
    IERC1155MetadataURI: "0x0e89341c",
    IAccessControl: "0x7965db0b",
    IAccessControlDefaultAdminRules: "0x31498786",
  } as const;

  for (const [name, id] of Object.entries(interfaces)) {
    it(`reports ${name} (${id})`, async () => {
      const { collectibles } = await networkHelpers.loadFixture(withTokens);
      assert.equal(await collectibles.read.supportsInterface([id]), true);
    });
  }

  it("denies 0xffffffff and interfaces it does not implement (IERC721, IERC1155Receiver)", async () => {
    const { collectibles } = await networkHelpers.loadFixture(withTokens);
    for (const id of ["0xffffffff", "0x80ac58cd", "0x4e2312e0"] as const) {
      assert.equal(await collectibles.read.supportsInterface([id]), false, id);
    }
  });
});
