/**
 * Contracts for tests in other packages (`@collectibles/contracts/testing`): ERC-1155 receivers
 * that accept, refuse in each way the standard allows, burn gas, or claim again from their hook
 * as a minter. Deploy them with viem's `deployContract({ abi, bytecode, args })`.
 *
 * - `erc1155ReceiverMock(singleAnswer, batchAnswer, revertType)`: answers the given selectors,
 *   or reverts per `ReceiverRevertType`.
 * - `nonReceiverMock()`: a contract without the hook.
 * - `gasBurnerReceiverMock(burn)`: burns `burn` gas in its hook, then accepts.
 * - `adjustableBurnerReceiverMock(burn)`: the same, with `setBurn(burn)` to change it later.
 * - `reentrantMinterMock(collectibles)`: after `arm(collectibleId, claimId, to, viaBatch,
 *   thenRefuse)`, claims once from its next hook (it needs MINTER_ROLE and a hook budget that
 *   covers a claim).
 */
import type { Address } from "viem";
import {
  adjustableBurnerReceiverMock,
  erc1155ReceiverMock,
  gasBurnerReceiverMock,
  nonReceiverMock,
  reentrantMinterMock,
} from "./generated/testContracts.ts";

export {
  adjustableBurnerReceiverMock,
  erc1155ReceiverMock,
  gasBurnerReceiverMock,
  nonReceiverMock,
  reentrantMinterMock,
};

/** `ERC1155ReceiverMock.RevertType`. */
export const ReceiverRevertType = {
  None: 0,
  RevertWithoutMessage: 1,
  RevertWithMessage: 2,
  RevertWithCustomError: 3,
  Panic: 4,
} as const;

/** The selectors an ERC-1155 receiver answers with when it accepts. */
export const ON_ERC1155_RECEIVED = "0xf23a6e61";
export const ON_ERC1155_BATCH_RECEIVED = "0xbc197c81";

type RecipientMock =
  | typeof nonReceiverMock
  | typeof gasBurnerReceiverMock
  | typeof erc1155ReceiverMock;

/**
 * Deploys, with the caller's `deploy`, one recipient of each kind a claim batch must keep apart
 * from the rest: one without the hook, one burning more gas than any hook budget, and one that
 * accepts. The API's and the indexer's isolation tests claim to the same three.
 */
export async function deployIsolationRecipients(
  deploy: (mock: RecipientMock, args: readonly unknown[]) => Promise<Address>,
) {
  return {
    refusing: await deploy(nonReceiverMock, []),
    burner: await deploy(gasBurnerReceiverMock, [100_000_000n]),
    accepting: await deploy(erc1155ReceiverMock, [
      ON_ERC1155_RECEIVED,
      ON_ERC1155_BATCH_RECEIVED,
      ReceiverRevertType.None,
    ]),
  };
}
