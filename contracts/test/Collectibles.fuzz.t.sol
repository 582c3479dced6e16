// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {ICollectibles} from "../contracts/interfaces/ICollectibles.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {ERC1155ReceiverMock, NonReceiverMock} from "../contracts/test/ERC1155ReceiverMock.sol";
import {GasBurnerReceiverMock} from "../contracts/test/GasBurnerReceiverMock.sol";
import {CollectiblesTestBase} from "./utils/CollectiblesTestBase.sol";

/// @notice Fuzz tests: each states a property and lets the fuzzer pick the values.
contract CollectiblesFuzzTest is CollectiblesTestBase {
    /// Token ids never collide: two different (collectible, claim) pairs never share a token id,
    /// and a token id gives back the pair it was made from.
    function testFuzz_tokenIdOf_IsInjective(bytes16 collectibleA, bytes16 claimA, bytes16 collectibleB, bytes16 claimB)
        public
        view
    {
        vm.assume(collectibleA != collectibleB || claimA != claimB);
        uint256 a = collectibles.tokenIdOf(collectibleA, claimA);
        vm.assertNotEq(a, collectibles.tokenIdOf(collectibleB, claimB), "different pairs, different ids");
        vm.assertEq(bytes32(bytes16(uint128(a >> 128))), bytes32(collectibleA), "collectible half");
        vm.assertEq(bytes32(bytes16(uint128(a))), bytes32(claimA), "claim half");
    }

    /// The same claim id in two collectibles mints two distinct tokens, one in each.
    function testFuzz_claim_SameClaimIdInTwoCollectiblesMintsTwoTokens(bytes16 otherCollectible, bytes16 claimId)
        public
    {
        vm.assume(otherCollectible != 0 && otherCollectible != COLLECTIBLE && claimId != 0);
        _create(otherCollectible, 1);
        uint256 first = _claim(COLLECTIBLE, claimId, ALICE);
        uint256 second = _claim(otherCollectible, claimId, BOB);
        vm.assertNotEq(first, second, "token ids");
        vm.assertEq(collectibles.holderOf(first), ALICE, "first holder");
        vm.assertEq(collectibles.holderOf(second), BOB, "second holder");
    }

    /// A claim id mints at most once, whoever the second receiver is.
    function testFuzz_claim_MintsClaimIdAtMostOnce(bytes16 claimId, address first, address second) public {
        vm.assume(claimId != 0);
        _assumeEoa(first);
        _assumeEoa(second);
        uint256 tokenId = _claim(COLLECTIBLE, claimId, first);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.ClaimAlreadyMinted.selector, COLLECTIBLE, claimId));
        _claim(COLLECTIBLE, claimId, second);
        vm.assertEq(collectibles.holderOf(tokenId), first, "holder");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 1, "claimed");
    }

    /// Claimed never exceeds the total: every attempt past it is refused with CollectibleSoldOut,
    /// and editions run 1..total in claim order.
    function testFuzz_claim_NeverMintsPastTotalSupply(uint256 totalSeed, uint256 attemptsSeed, uint256 salt) public {
        uint64 total = uint64(_bound(totalSeed, 1, 12));
        uint256 attempts = _bound(attemptsSeed, 1, 20);
        bytes16 id = bytes16(keccak256(abi.encode("collectible", salt)));
        vm.assume(id != 0 && id != COLLECTIBLE);
        _create(id, total);
        for (uint256 i = 0; i < attempts; ++i) {
            bytes16 claimId = bytes16(keccak256(abi.encode(salt, i)));
            if (i >= total) {
                vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, id, total));
                _claim(id, claimId, ALICE);
            } else {
                uint256 tokenId = _claim(id, claimId, ALICE);
                vm.assertEq(collectibles.editionOf(tokenId), i + 1, "edition");
            }
            vm.assertLe(collectibles.claimedCount(id), total, "claimed <= total");
        }
        uint256 minted = attempts < total ? attempts : total;
        vm.assertEq(collectibles.claimedCount(id), minted, "claimed");
        vm.assertEq(collectibles.availableCount(id), total - minted, "available");
    }

    /// A batch mints its claims with consecutive editions up to the total and skips the rest as
    /// sold out, whatever the sizes.
    function testFuzz_claimBatch_MintsUpToTheTotalAndSkipsTheRest(uint256 sizeSeed, uint256 totalSeed, uint256 salt)
        public
    {
        uint256 size = _bound(sizeSeed, 1, 16);
        uint64 total = uint64(_bound(totalSeed, 1, 16));
        bytes16 id = bytes16(keccak256(abi.encode("batch", salt)));
        vm.assume(id != 0 && id != COLLECTIBLE);
        _create(id, total);
        Claim[] memory claims = new Claim[](size);
        for (uint256 i = 0; i < size; ++i) {
            claims[i] = Claim(id, bytes16(keccak256(abi.encode(salt, i))), i % 2 == 0 ? ALICE : BOB);
        }
        _batch(claims);
        for (uint256 i = 0; i < size; ++i) {
            uint256 tokenId = _tokenId(id, claims[i].claimId);
            if (i < total) {
                vm.assertEq(collectibles.editionOf(tokenId), i + 1, "edition");
                vm.assertEq(collectibles.holderOf(tokenId), claims[i].to, "holder");
            } else {
                vm.assertFalse(collectibles.isClaimed(id, claims[i].claimId), "skipped past the total");
            }
        }
        vm.assertEq(collectibles.claimedCount(id), size < total ? size : total, "claimed");
    }

    /// A claim skipped because its receiver refused is not minted, costs no edition, and its id
    /// can be claimed again to another address, which then gets the next edition.
    function testFuzz_claimBatch_RefusedClaimCanBeClaimedAgain(uint8 kindSeed, address later) public {
        _assumeEoa(later);
        address refusing = _refusingReceiver(kindSeed);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, refusing);
        claims[1] = Claim(COLLECTIBLE, CLAIM_2, ALICE);
        _batch(claims);
        vm.assertFalse(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "refused: not minted");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 1, "no edition spent");

        claims = new Claim[](1);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, later);
        _batch(claims);
        vm.assertEq(collectibles.holderOf(_tokenId(COLLECTIBLE, CLAIM_1)), later, "claimed again");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_1)), 2, "next edition");
    }

    /// A receiver's hook that uses up to its budget is accepted; one that needs more is skipped as
    /// gas exceeded, and the batch pays at most the budget and the isolated mint for it.
    function testFuzz_claimBatch_BoundsWhatAHookCanSpend(uint256 burnSeed) public {
        uint256 burn = _bound(burnSeed, 0, 3 * HOOK_GAS_BUDGET);
        GasBurnerReceiverMock receiver = new GasBurnerReceiverMock(burn);
        Claim[] memory claims = new Claim[](1);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, address(receiver));
        uint256 before = gasleft();
        _batch(claims);
        vm.assertLe(before - gasleft(), HOOK_GAS_BUDGET + 100_000, "bounded");
        // The burner's loop overshoots its target by a few hundred gas; near the edge either is fine.
        if (burn + 2_000 <= HOOK_GAS_BUDGET) {
            vm.assertTrue(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "within budget: minted");
        } else if (burn >= HOOK_GAS_BUDGET) {
            vm.assertFalse(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "over budget: skipped");
        }
    }

    /// Only the holder or an operator the holder approved moves a token; anybody else, whatever
    /// role they hold, is refused with ERC1155MissingApprovalForAll(caller, holder).
    function testFuzz_safeTransferFrom_MovesOnlyForHolderOrApprovedOperator(address caller, bool approved) public {
        _assumeEoa(caller);
        vm.assume(caller != ALICE);
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        if (approved) {
            vm.prank(ALICE);
            collectibles.setApprovalForAll(caller, true);
        } else {
            vm.expectRevert(
                abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, caller, ALICE)
            );
        }
        vm.prank(caller);
        collectibles.safeTransferFrom(ALICE, BOB, tokenId, 1, "");
        vm.assertEq(collectibles.holderOf(tokenId), approved ? BOB : ALICE, "holder");
    }

    /// A balance is 1 for the holder only, and at most 1 for anybody.
    function testFuzz_balanceOf_IsOneOnlyForHolder(address account, bytes16 claimId) public {
        vm.assume(claimId != 0);
        uint256 tokenId = _claim(COLLECTIBLE, claimId, ALICE);
        vm.assertEq(collectibles.balanceOf(account, tokenId), account == ALICE ? 1 : 0, "balance");
    }

    /// Any transfer value above the balance is refused with the balance and value in the error.
    function testFuzz_safeTransferFrom_RefusesValueAboveBalance(uint256 value) public {
        vm.assume(value > 1);
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.expectRevert(
            abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, ALICE, 1, value, tokenId)
        );
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, BOB, tokenId, value, "");
    }

    /// Metadata is stored verbatim and never changes, whatever happens to the collectible's tokens.
    function testFuzz_createCollectible_KeepsMetadataForever(
        string calldata name,
        string calldata description,
        string calldata image,
        string calldata mimeType,
        uint64 total
    ) public {
        vm.assume(bytes(name).length > 0 && total > 1);
        bytes16 id = bytes16(keccak256(bytes(name)));
        vm.assume(id != 0 && id != COLLECTIBLE);
        ICollectibles.Metadata memory metadata = ICollectibles.Metadata(name, description, image, mimeType);
        vm.prank(MINTER);
        collectibles.createCollectible(id, ORGANIZATION, CREATOR, total, metadata);
        bytes32 created = _hash(collectibles.collectible(id).metadata);
        vm.assertEq(created, _hash(metadata), "stored verbatim");

        uint256 tokenId = _claim(id, CLAIM_1, ALICE);
        string memory uriBefore = collectibles.uri(tokenId);
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, BOB, tokenId, 1, "");
        _claim(id, CLAIM_2, BOB);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleAlreadyExists.selector, id));
        vm.prank(MINTER);
        collectibles.createCollectible(id, ORGANIZATION, CREATOR, total, ICollectibles.Metadata("x", "", "", ""));

        vm.assertEq(_hash(collectibles.collectible(id).metadata), created, "metadata unchanged");
        vm.assertEq(collectibles.collectible(id).totalSupply, total, "total unchanged");
        vm.assertEq(collectibles.uri(tokenId), uriBefore, "uri unchanged");
    }

    /// @dev A receiver that refuses in one of the ways the standard allows for.
    function _refusingReceiver(uint8 seed) internal returns (address) {
        uint256 kind = seed % 5;
        if (kind == 0) return address(new NonReceiverMock());
        if (kind == 1) return address(new ERC1155ReceiverMock(0xdeadbeef, 0xdeadbeef, ERC1155ReceiverMock.RevertType.None));
        ERC1155ReceiverMock.RevertType revertType = kind == 2
            ? ERC1155ReceiverMock.RevertType.RevertWithoutMessage
            : kind == 3 ? ERC1155ReceiverMock.RevertType.RevertWithMessage : ERC1155ReceiverMock.RevertType.Panic;
        return address(
            new ERC1155ReceiverMock(
                IERC1155Receiver.onERC1155Received.selector, IERC1155Receiver.onERC1155BatchReceived.selector, revertType
            )
        );
    }
}
