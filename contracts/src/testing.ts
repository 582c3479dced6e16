/**
 * Contracts for tests in other packages (`@collectibles/contracts/testing`): ERC-1155 receivers
 * that accept, refuse in each way the standard allows, burn gas, or claim again from their hook
 * as a minter. Deploy them with viem's `deployContract({ abi, bytecode, args })`.
 *
 * - `erc1155ReceiverMock(singleAnswer, batchAnswer, revertType)`: answers the given selectors,
 *   or reverts per `ReceiverRevertType`.
 * - `nonReceiverMock()`: a contract without the hook.
 * - `gasBurnerReceiverMock(burn)`: burns `burn` gas in its hook, then accepts.
 * - `reentrantMinterMock(collectibles)`: after `arm(collectibleId, claimId, to, viaBatch,
 *   thenRefuse)`, claims once from its next hook (it needs MINTER_ROLE and a hook budget that
 *   covers a claim).
 */
export {
  erc1155ReceiverMock,
  gasBurnerReceiverMock,
  nonReceiverMock,
  reentrantMinterMock,
} from "./generated/testContracts.ts";

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
