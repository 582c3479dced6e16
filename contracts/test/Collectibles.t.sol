// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IAccessControlDefaultAdminRules} from
    "@openzeppelin/contracts/access/extensions/IAccessControlDefaultAdminRules.sol";
import {IERC1155Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC1155MetadataURI} from "@openzeppelin/contracts/token/ERC1155/extensions/IERC1155MetadataURI.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {Collectibles} from "../contracts/Collectibles.sol";
import {ICollectibles} from "../contracts/interfaces/ICollectibles.sol";
import {ERC1155ReceiverMock, NonReceiverMock} from "../contracts/test/ERC1155ReceiverMock.sol";
import {ReentrantMinterMock} from "../contracts/test/ReentrantMinterMock.sol";
import {GasBurnerReceiverMock} from "../contracts/test/GasBurnerReceiverMock.sol";
import {LargeRevertReceiverMock} from "../contracts/test/LargeRevertReceiverMock.sol";
import {CollectiblesTestBase} from "./utils/CollectiblesTestBase.sol";
import {Vm} from "./utils/Vm.sol";

/// @notice createCollectible: stores an immutable record, and every way it can refuse.
contract CreateCollectibleTest is CollectiblesTestBase {
    bytes16 internal constant OTHER = bytes16(0x11111111222233334444555555555555);

    function test_createCollectible_StoresSupplyOwnerAndMetadata() public view {
        ICollectibles.CollectibleInfo memory info = collectibles.collectible(COLLECTIBLE);
        _assertEq(info.organizationId, ORGANIZATION, "organization");
        _assertEq(info.creatorId, CREATOR, "creator");
        vm.assertEq(info.totalSupply, TOTAL, "total");
        vm.assertEq(info.claimed, 0, "claimed");
        vm.assertEq(_hash(info.metadata), _hash(_metadata()), "metadata");
        vm.assertEq(collectibles.availableCount(COLLECTIBLE), TOTAL, "available");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 0, "claimed count");
    }

    function test_createCollectible_EmitsCollectibleCreated() public {
        vm.expectEmit(address(collectibles));
        emit ICollectibles.CollectibleCreated(OTHER, ORGANIZATION, bytes16(0), 7, _metadata());
        vm.prank(MINTER);
        collectibles.createCollectible(OTHER, ORGANIZATION, bytes16(0), 7, _metadata());
    }

    function test_createCollectible_AcceptsEmptyDescriptionImageAndMimeType() public {
        ICollectibles.Metadata memory metadata = ICollectibles.Metadata("Only a name", "", "", "");
        vm.prank(MINTER);
        collectibles.createCollectible(OTHER, ORGANIZATION, CREATOR, 1, metadata);
        vm.assertEq(_hash(collectibles.collectible(OTHER).metadata), _hash(metadata), "metadata");
    }

    function test_createCollectible_AcceptsLargestTotalSupply() public {
        _create(OTHER, type(uint64).max);
        vm.assertEq(collectibles.availableCount(OTHER), type(uint64).max, "available");
    }

    function test_createCollectible_RevertsWhenCallerIsNotMinter() public {
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, ADMIN, MINTER_ROLE)
        );
        vm.prank(ADMIN);
        collectibles.createCollectible(OTHER, ORGANIZATION, CREATOR, 1, _metadata());
    }

    function test_createCollectible_RevertsWhenIdIsZero() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.InvalidCollectibleId.selector));
        _create(bytes16(0), 1);
    }

    function test_createCollectible_RevertsWhenIdAlreadyExists() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleAlreadyExists.selector, COLLECTIBLE));
        _create(COLLECTIBLE, 10);
    }

    function test_createCollectible_RevertsWhenIdExistsEvenIfSoldOut() public {
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        _claim(COLLECTIBLE, CLAIM_2, ALICE);
        _claim(COLLECTIBLE, CLAIM_3, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleAlreadyExists.selector, COLLECTIBLE));
        _create(COLLECTIBLE, 10);
    }

    function test_createCollectible_RevertsWhenTotalSupplyIsZero() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.InvalidTotalSupply.selector, OTHER));
        _create(OTHER, 0);
    }

    function test_createCollectible_RevertsWhenNameIsEmpty() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.EmptyName.selector, OTHER));
        vm.prank(MINTER);
        collectibles.createCollectible(OTHER, ORGANIZATION, CREATOR, 1, ICollectibles.Metadata("", "d", "i", "m"));
    }
}

/// @notice claim: one token per claim id, numbered editions, never past the total.
contract ClaimTest is CollectiblesTestBase {
    function test_claim_MintsOneTokenToReceiver() public {
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.assertEq(collectibles.balanceOf(ALICE, tokenId), 1, "balance");
        vm.assertEq(collectibles.holderOf(tokenId), ALICE, "holder");
        vm.assertTrue(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "claimed");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 1, "claimed count");
        vm.assertEq(collectibles.availableCount(COLLECTIBLE), TOTAL - 1, "available");
    }

    function test_claim_ReturnsTokenIdNamingCollectibleAndClaim() public {
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.assertEq(tokenId, _tokenId(COLLECTIBLE, CLAIM_1), "token id");
        vm.assertEq(tokenId, collectibles.tokenIdOf(COLLECTIBLE, CLAIM_1), "tokenIdOf");
    }

    function test_claim_NumbersEditionsInClaimOrder() public {
        uint256 first = _claim(COLLECTIBLE, CLAIM_3, ALICE);
        uint256 second = _claim(COLLECTIBLE, CLAIM_1, BOB);
        uint256 third = _claim(COLLECTIBLE, CLAIM_2, ALICE);
        vm.assertEq(collectibles.editionOf(first), 1, "first");
        vm.assertEq(collectibles.editionOf(second), 2, "second");
        vm.assertEq(collectibles.editionOf(third), 3, "third");
    }

    function test_claim_EmitsTransferSingleFromZeroAddress() public {
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(MINTER, address(0), ALICE, _tokenId(COLLECTIBLE, CLAIM_1), 1);
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
    }

    function test_claim_RevertsWhenSoldOut() public {
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        _claim(COLLECTIBLE, CLAIM_2, ALICE);
        _claim(COLLECTIBLE, CLAIM_3, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, COLLECTIBLE, TOTAL));
        _claim(COLLECTIBLE, CLAIM_4, BOB);
    }

    function test_claim_RevertsWhenClaimIdAlreadyMinted() public {
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.ClaimAlreadyMinted.selector, COLLECTIBLE, CLAIM_1));
        _claim(COLLECTIBLE, CLAIM_1, BOB);
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 1, "the refused retry is not counted");
    }

    function test_claim_RevertsWhenClaimIdAlreadyMintedAndTokenWasMoved() public {
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, BOB, tokenId, 1, "");
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.ClaimAlreadyMinted.selector, COLLECTIBLE, CLAIM_1));
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
    }

    function test_claim_RevertsWhenCollectibleIsUnknown() public {
        bytes16 unknown = bytes16(0x99999999999999999999999999999999);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, unknown));
        _claim(unknown, CLAIM_1, ALICE);
    }

    function test_claim_RevertsWhenReceiverIsZeroAddress() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(0)));
        _claim(COLLECTIBLE, CLAIM_1, address(0));
    }

    function test_claim_RevertsWhenClaimIdIsZero() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.InvalidClaimId.selector, COLLECTIBLE));
        _claim(COLLECTIBLE, bytes16(0), ALICE);
    }

    function test_claim_RevertsWhenCallerIsNotMinter() public {
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, ALICE, MINTER_ROLE)
        );
        vm.prank(ALICE);
        collectibles.claim(COLLECTIBLE, CLAIM_1, ALICE);
    }

    function test_claim_RevertsWhenCallerIsDefaultAdmin() public {
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, ADMIN, MINTER_ROLE)
        );
        vm.prank(ADMIN);
        collectibles.claim(COLLECTIBLE, CLAIM_1, ALICE);
    }

    function test_claim_CallsReceiverHookWhenReceiverIsContract() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.None);
        uint256 tokenId = _tokenId(COLLECTIBLE, CLAIM_1);
        vm.expectEmit(address(receiver));
        emit ERC1155ReceiverMock.Received(MINTER, address(0), tokenId, 1, "");
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
        vm.assertEq(collectibles.balanceOf(address(receiver), tokenId), 1, "balance");
    }

    function test_claim_RevertsWhenReceiverReturnsWrongValue() public {
        ERC1155ReceiverMock receiver =
            new ERC1155ReceiverMock(0xdeadbeef, 0xdeadbeef, ERC1155ReceiverMock.RevertType.None);
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(receiver)));
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
    }

    function test_claim_RevertsWhenReceiverRevertsWithoutReason() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.RevertWithoutMessage);
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(receiver)));
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
    }

    function test_claim_BubblesReceiverRevertReason() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.RevertWithCustomError);
        vm.expectRevert(
            abi.encodeWithSelector(
                ERC1155ReceiverMock.CustomError.selector, IERC1155Receiver.onERC1155Received.selector
            )
        );
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 0, "nothing counted");
    }

    function test_claim_PassesOnReceiverRevertDataOfUpTo1024Bytes() public {
        // 68 bytes of selector, offset and length, then the payload: 1,024 bytes in all.
        LargeRevertReceiverMock receiver = new LargeRevertReceiverMock(956, 0);
        bytes memory expected = abi.encodePacked(
            LargeRevertReceiverMock.Refused.selector, uint256(0x20), uint256(956), new bytes(956)
        );
        vm.assertEq(expected.length, 1024, "revert data length");
        vm.expectRevert(expected);
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
    }

    function test_claim_RevertsWithInvalidReceiverWhenReceiverRevertDataIsLonger() public {
        // One byte more than claim() copies: a refusal like a revert without data.
        LargeRevertReceiverMock receiver = new LargeRevertReceiverMock(957, 0);
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(receiver)));
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 0, "nothing counted");
    }

    function test_claim_RevertsWhenReceiverHasNoHook() public {
        NonReceiverMock receiver = new NonReceiverMock();
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(receiver)));
        _claim(COLLECTIBLE, CLAIM_1, address(receiver));
    }

    function _receiver(ERC1155ReceiverMock.RevertType revertType) internal returns (ERC1155ReceiverMock) {
        return new ERC1155ReceiverMock(
            IERC1155Receiver.onERC1155Received.selector, IERC1155Receiver.onERC1155BatchReceived.selector, revertType
        );
    }
}

/// @notice claimBatch: packed runs; the sender's mistakes revert the batch, a claim's own trouble
/// (already minted, sold out, a refusing or gas-hungry receiver) skips only that claim.
contract ClaimBatchTest is CollectiblesTestBase {
    bytes16 internal constant SECOND = bytes16(0x22222222333344445555666666666666);

    function test_claimBatch_MintsEveryClaimInOrder() public {
        Claim[] memory claims = new Claim[](3);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, CLAIM_2, BOB);
        claims[2] = Claim(COLLECTIBLE, CLAIM_3, ALICE);
        _batch(claims);
        vm.assertEq(collectibles.holderOf(_tokenId(COLLECTIBLE, CLAIM_1)), ALICE, "holder 1");
        vm.assertEq(collectibles.holderOf(_tokenId(COLLECTIBLE, CLAIM_2)), BOB, "holder 2");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_1)), 1, "edition 1");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 2, "edition 2");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_3)), 3, "edition 3");
        vm.assertEq(collectibles.availableCount(COLLECTIBLE), 0, "available");
    }

    function test_claimBatch_EmitsTransferSinglePerClaim() public {
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, CLAIM_2, BOB);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(MINTER, address(0), ALICE, _tokenId(COLLECTIBLE, CLAIM_1), 1);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(MINTER, address(0), BOB, _tokenId(COLLECTIBLE, CLAIM_2), 1);
        _batch(claims);
    }

    function test_claimBatch_MintsAcrossCollectibles() public {
        _create(SECOND, 1);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(SECOND, CLAIM_1, ALICE);
        _batch(claims);
        uint256 first = _tokenId(COLLECTIBLE, CLAIM_1);
        uint256 second = _tokenId(SECOND, CLAIM_1);
        vm.assertNotEq(first, second, "same claim id, different collectibles, different tokens");
        vm.assertEq(collectibles.editionOf(first), 1, "edition in first");
        vm.assertEq(collectibles.editionOf(second), 1, "edition in second");
    }

    function test_claimBatch_NumbersEditionsAcrossInterleavedCollectibles() public {
        _create(SECOND, 3);
        Claim[] memory claims = new Claim[](5);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(SECOND, CLAIM_1, ALICE);
        claims[2] = Claim(SECOND, CLAIM_2, BOB);
        claims[3] = Claim(COLLECTIBLE, CLAIM_2, BOB);
        claims[4] = Claim(SECOND, CLAIM_3, BOB);
        _batch(claims);
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_1)), 1, "first, 1");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 2, "first, 2");
        vm.assertEq(collectibles.editionOf(_tokenId(SECOND, CLAIM_1)), 1, "second, 1");
        vm.assertEq(collectibles.editionOf(_tokenId(SECOND, CLAIM_2)), 2, "second, 2");
        vm.assertEq(collectibles.editionOf(_tokenId(SECOND, CLAIM_3)), 3, "second, 3");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 2, "first counted");
        vm.assertEq(collectibles.claimedCount(SECOND), 3, "second counted");
    }

    function test_claimBatch_SkipsClaimsPastTheTotalAsSoldOut() public {
        Claim[] memory claims = new Claim[](4);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, CLAIM_2, ALICE);
        claims[2] = Claim(COLLECTIBLE, CLAIM_3, ALICE);
        claims[3] = Claim(COLLECTIBLE, CLAIM_4, BOB);
        _expectSkip(claims[3], ICollectibles.SkipReason.SoldOut);
        _batch(claims);
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), TOTAL, "claimed == total");
        vm.assertFalse(collectibles.isClaimed(COLLECTIBLE, CLAIM_4), "the fourth is not minted");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_3)), 3, "the third is the last edition");
    }

    function test_claimBatch_SkipsClaimIdRepeatedInsideBatchAsAlreadyMinted() public {
        Claim[] memory claims = new Claim[](3);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, CLAIM_1, BOB);
        claims[2] = Claim(COLLECTIBLE, CLAIM_2, BOB);
        _expectSkip(claims[1], ICollectibles.SkipReason.AlreadyMinted);
        _batch(claims);
        vm.assertEq(collectibles.holderOf(_tokenId(COLLECTIBLE, CLAIM_1)), ALICE, "the first one holds it");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 2, "no edition spent on the repeat");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 2, "claimed");
    }

    function test_claimBatch_SkipsClaimMintedByAnEarlierTransaction() public {
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, CLAIM_2, ALICE);
        _expectSkip(claims[0], ICollectibles.SkipReason.AlreadyMinted);
        _batch(claims);
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_1)), 1, "kept its edition");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 2, "the new one");
    }

    function test_claimBatch_RevertsWhenEmpty() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.EmptyBatch.selector));
        _batch(new Claim[](0));
    }

    function test_claimBatch_RevertsWhenRunIsEmptyOrNotWholeRecords() public {
        ICollectibles.ClaimRun[] memory runs = new ICollectibles.ClaimRun[](1);
        runs[0] = ICollectibles.ClaimRun(COLLECTIBLE, "");
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.MalformedClaimRun.selector, COLLECTIBLE, 0));
        vm.prank(MINTER);
        collectibles.claimBatch(runs);

        runs[0] = ICollectibles.ClaimRun(COLLECTIBLE, abi.encodePacked(CLAIM_1, ALICE, bytes1(0x01)));
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.MalformedClaimRun.selector, COLLECTIBLE, 37));
        vm.prank(MINTER);
        collectibles.claimBatch(runs);
    }

    function test_claimBatch_RevertsWhenOneCollectibleIsUnknown() public {
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(SECOND, CLAIM_2, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, SECOND));
        _batch(claims);
    }

    function test_claimBatch_RevertsWhenOneReceiverIsZeroAddress() public {
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, CLAIM_2, address(0));
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(0)));
        _batch(claims);
    }

    function test_claimBatch_RevertsWhenOneClaimIdIsZero() public {
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = Claim(COLLECTIBLE, bytes16(0), ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.InvalidClaimId.selector, COLLECTIBLE));
        _batch(claims);
    }

    function test_claimBatch_RevertsWhenCallerIsNotMinter() public {
        Claim[] memory claims = new Claim[](1);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        ICollectibles.ClaimRun[] memory runs = _runs(claims);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, BOB, MINTER_ROLE)
        );
        vm.prank(BOB);
        collectibles.claimBatch(runs);
    }

    function test_mintIsolated_RevertsWhenCallerIsNotTheContract() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CallerNotSelf.selector, MINTER));
        vm.prank(MINTER);
        collectibles.mintIsolated(MINTER, COLLECTIBLE, CLAIM_1, ALICE);
    }
}

/// @notice Contract receivers in a batch: each one decides only its own claim, within its budget.
contract ReceiverIsolationTest is CollectiblesTestBase {
    bytes16 internal constant BIG = bytes16(0x55555555555555555555555555555555);

    function setUp() public override {
        super.setUp();
        _create(BIG, 100);
    }

    function test_claimBatch_SkipsEachRefusingReceiverAndMintsTheOthers() public {
        address[5] memory refusing = [
            address(_receiver(ERC1155ReceiverMock.RevertType.RevertWithoutMessage)),
            address(_receiver(ERC1155ReceiverMock.RevertType.RevertWithMessage)),
            address(_receiver(ERC1155ReceiverMock.RevertType.Panic)),
            address(new ERC1155ReceiverMock(0xdeadbeef, 0xdeadbeef, ERC1155ReceiverMock.RevertType.None)),
            address(new NonReceiverMock())
        ];
        Claim[] memory claims = new Claim[](11);
        for (uint256 i = 0; i < 5; ++i) {
            claims[2 * i] = Claim(BIG, _id(2 * i), ALICE);
            claims[2 * i + 1] = Claim(BIG, _id(2 * i + 1), refusing[i]);
        }
        claims[10] = Claim(BIG, _id(10), BOB);
        for (uint256 i = 0; i < 5; ++i) {
            _expectSkip(claims[2 * i + 1], ICollectibles.SkipReason.ReceiverRefused);
        }
        _batch(claims);
        for (uint256 i = 0; i < 5; ++i) {
            vm.assertEq(collectibles.editionOf(_tokenId(BIG, _id(2 * i))), i + 1, "plain receivers get 1..5");
            vm.assertFalse(collectibles.isClaimed(BIG, _id(2 * i + 1)), "refused: not minted");
            vm.assertEq(collectibles.balanceOf(refusing[i], _tokenId(BIG, _id(2 * i + 1))), 0, "nothing held");
        }
        vm.assertEq(collectibles.editionOf(_tokenId(BIG, _id(10))), 6, "no edition lost to a refusal");
        vm.assertEq(collectibles.claimedCount(BIG), 6, "refusals give their place back");
    }

    function test_claimBatch_MintsToAcceptingReceiverAndCallsItsHook() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.None);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(BIG, CLAIM_1, address(receiver));
        claims[1] = Claim(BIG, CLAIM_2, ALICE);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(MINTER, address(0), address(receiver), _tokenId(BIG, CLAIM_1), 1);
        vm.expectEmit(address(receiver));
        emit ERC1155ReceiverMock.Received(MINTER, address(0), _tokenId(BIG, CLAIM_1), 1, "");
        _batch(claims);
        vm.assertEq(collectibles.editionOf(_tokenId(BIG, CLAIM_1)), 1, "receiver's edition");
        vm.assertEq(collectibles.editionOf(_tokenId(BIG, CLAIM_2)), 2, "next edition");
    }

    function test_claimBatch_SkipsReceiverThatExceedsItsGasBudget() public {
        GasBurnerReceiverMock burner = new GasBurnerReceiverMock(10_000_000);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(BIG, CLAIM_1, address(burner));
        claims[1] = Claim(BIG, CLAIM_2, ALICE);
        _expectSkip(claims[0], ICollectibles.SkipReason.ReceiverGasExceeded);
        uint256 before = gasleft();
        _batch(claims);
        vm.assertLe(before - gasleft(), HOOK_GAS_BUDGET + 100_000, "the burner cost its budget and little more");
        vm.assertFalse(collectibles.isClaimed(BIG, CLAIM_1), "not minted");
        vm.assertEq(collectibles.editionOf(_tokenId(BIG, CLAIM_2)), 1, "the other claim minted");
    }

    function test_claimBatch_MintsToReceiverThatUsesMostOfItsBudget() public {
        GasBurnerReceiverMock hungry = new GasBurnerReceiverMock(HOOK_GAS_BUDGET - 5_000);
        Claim[] memory claims = new Claim[](1);
        claims[0] = Claim(BIG, CLAIM_1, address(hungry));
        _batch(claims);
        vm.assertEq(collectibles.holderOf(_tokenId(BIG, CLAIM_1)), address(hungry), "minted");
    }

    function test_claimBatch_RevertsWhenGasLimitCannotGiveTheHookItsBudget() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.None);
        Claim[] memory claims = new Claim[](1);
        claims[0] = Claim(BIG, CLAIM_1, address(receiver));
        ICollectibles.ClaimRun[] memory runs = _runs(claims);
        // Enough to reach the hook, not enough for its whole budget: the batch reverts rather than
        // calling an accepting receiver with less and reporting it as refusing.
        // The error's arguments are gas amounts that depend on the compiler; its selector is checked.
        vm.prank(MINTER);
        try collectibles.claimBatch{gas: 80_000}(runs) {
            vm.assertTrue(false, "the batch must revert");
        } catch (bytes memory reason) {
            vm.assertEq(bytes4(reason), ICollectibles.InsufficientGasForHook.selector, "InsufficientGasForHook");
        }
        vm.assertFalse(collectibles.isClaimed(BIG, CLAIM_1), "nothing minted");
    }

    function test_claimBatch_TreatsAnEip7702DelegatedAccountAsAContract() public {
        // An account whose code is the EIP-7702 designator 0xef0100 || delegate.
        NonReceiverMock delegate = new NonReceiverMock();
        address delegated = address(0xDE1E6A7ED);
        vm.etch(delegated, abi.encodePacked(hex"ef0100", address(delegate)));
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(BIG, CLAIM_1, delegated);
        claims[1] = Claim(BIG, CLAIM_2, ALICE);
        _expectSkip(claims[0], ICollectibles.SkipReason.ReceiverRefused);
        _batch(claims);
        vm.assertFalse(collectibles.isClaimed(BIG, CLAIM_1), "not minted to the delegated account");
    }

    function test_claimBatch_MintsToAnEip7702DelegatedAccountWhoseDelegateAccepts() public {
        ERC1155ReceiverMock delegate = _receiver(ERC1155ReceiverMock.RevertType.None);
        address delegated = address(0xDE1E6A7ED);
        vm.etch(delegated, abi.encodePacked(hex"ef0100", address(delegate)));
        Claim[] memory claims = new Claim[](1);
        claims[0] = Claim(BIG, CLAIM_1, delegated);
        _batch(claims);
        vm.assertEq(collectibles.holderOf(_tokenId(BIG, CLAIM_1)), delegated, "minted through the delegate's hook");
    }

    function test_claim_RevertsWithReceiverGasExceededWhenHookExceedsBudget() public {
        GasBurnerReceiverMock burner = new GasBurnerReceiverMock(10_000_000);
        vm.expectRevert(
            abi.encodeWithSelector(ICollectibles.ReceiverGasExceeded.selector, address(burner), HOOK_GAS_BUDGET)
        );
        _claim(BIG, CLAIM_1, address(burner));
    }

    function test_hookGasBudget_ReturnsTheDeploymentValue() public view {
        vm.assertEq(collectibles.hookGasBudget(), HOOK_GAS_BUDGET, "budget");
    }

    function test_constructor_RevertsWhenHookGasBudgetIsOutOfRange() public {
        uint256 min = collectibles.MIN_HOOK_GAS_BUDGET();
        uint256 max = collectibles.MAX_HOOK_GAS_BUDGET();
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.InvalidHookGasBudget.selector, min - 1, min, max));
        new Collectibles(ADMIN_DELAY, ADMIN, MINTER, min - 1);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.InvalidHookGasBudget.selector, max + 1, min, max));
        new Collectibles(ADMIN_DELAY, ADMIN, MINTER, max + 1);
    }

    function _id(uint256 i) internal pure returns (bytes16) {
        return bytes16(uint128(0x1000 + i));
    }

    function _receiver(ERC1155ReceiverMock.RevertType revertType) internal returns (ERC1155ReceiverMock) {
        return new ERC1155ReceiverMock(
            IERC1155Receiver.onERC1155Received.selector, IERC1155Receiver.onERC1155BatchReceived.selector, revertType
        );
    }
}

/// @notice A receiver that is also a minter re-enters from its hook: it can never pass the total,
/// and editions follow the order of the mint events, which is what the indexer counts.
contract ReentrancyTest is CollectiblesTestBase {
    bytes16 internal constant SMALL = bytes16(0x44444444444444444444444444444444);
    ReentrantMinterMock internal receiver;

    function setUp() public override {
        // A hook that claims again needs more than the default budget (it writes three storage
        // slots of its own and mints): this deployment gives hooks the largest budget.
        collectibles = new Collectibles(ADMIN_DELAY, ADMIN, MINTER, 1_000_000);
        _create(COLLECTIBLE, TOTAL);
        receiver = new ReentrantMinterMock(collectibles);
        vm.prank(ADMIN);
        collectibles.grantRole(MINTER_ROLE, address(receiver));
        _create(SMALL, 3);
    }

    function test_claimBatch_GivesAReentrantClaimTheEditionOfItsMintEvent() public {
        receiver.arm(SMALL, CLAIM_4, ALICE, false, false);
        Claim[] memory claims = new Claim[](3);
        claims[0] = Claim(SMALL, CLAIM_1, address(receiver));
        claims[1] = Claim(SMALL, CLAIM_2, BOB);
        claims[2] = Claim(SMALL, CLAIM_3, BOB);
        vm.recordLogs();
        _batch(claims);

        vm.assertTrue(receiver.reentered(), "the hook's claim minted");
        vm.assertEq(receiver.claimedSeen(), 1, "the hook saw its own mint counted");
        // Mint events in log order: CLAIM_1, CLAIM_4 (from the hook), CLAIM_2; CLAIM_3 is sold out.
        uint256[] memory minted = _mintedTokens(vm.getRecordedLogs());
        vm.assertEq(minted.length, 3, "three mint events");
        vm.assertEq(minted[0], _tokenId(SMALL, CLAIM_1), "first event");
        vm.assertEq(minted[1], _tokenId(SMALL, CLAIM_4), "second event");
        vm.assertEq(minted[2], _tokenId(SMALL, CLAIM_2), "third event");
        for (uint256 i = 0; i < minted.length; ++i) {
            vm.assertEq(collectibles.editionOf(minted[i]), i + 1, "edition = position of the mint event");
        }
        vm.assertFalse(collectibles.isClaimed(SMALL, CLAIM_3), "no edition left for the last claim");
        vm.assertEq(collectibles.claimedCount(SMALL), 3, "claimed == total");
    }

    function test_claimBatch_NumbersAClaimTheHookMakesWithABatchInEventOrder() public {
        receiver.arm(SMALL, CLAIM_4, ALICE, true, false);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(SMALL, CLAIM_1, address(receiver));
        claims[1] = Claim(SMALL, CLAIM_2, BOB);
        _batch(claims);
        vm.assertTrue(receiver.reentered(), "the nested batch ran");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_1)), 1, "outer claim");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_4)), 2, "the hook's claim");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_2)), 3, "next claim of the batch");
    }

    function test_claimBatch_UndoesTheHooksOwnClaimWhenTheHookRefuses() public {
        receiver.arm(SMALL, CLAIM_4, ALICE, false, true);
        Claim[] memory claims = new Claim[](2);
        claims[0] = Claim(SMALL, CLAIM_1, address(receiver));
        claims[1] = Claim(SMALL, CLAIM_2, BOB);
        _expectSkip(claims[0], ICollectibles.SkipReason.ReceiverRefused);
        _batch(claims);
        vm.assertFalse(collectibles.isClaimed(SMALL, CLAIM_1), "refused claim not minted");
        vm.assertFalse(collectibles.isClaimed(SMALL, CLAIM_4), "the hook's claim undone with it");
        vm.assertFalse(receiver.reentered(), "the hook's records undone too");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_2)), 1, "the next claim gets edition 1");
        vm.assertEq(collectibles.claimedCount(SMALL), 1, "one claimed");
    }

    function test_claim_GivesAReentrantClaimTheNextEdition() public {
        receiver.arm(SMALL, CLAIM_2, ALICE, false, false);
        _claim(SMALL, CLAIM_1, address(receiver));
        vm.assertTrue(receiver.reentered(), "re-entrant claim minted");
        vm.assertEq(receiver.claimedSeen(), 1, "hook saw its own claim counted");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_1)), 1, "outer claim");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_2)), 2, "re-entrant claim");
    }

    function test_claim_RefusesAReentrantClaimPastTheTotal() public {
        _create(bytes16(uint128(7)), 1);
        receiver.arm(bytes16(uint128(7)), CLAIM_2, ALICE, false, false);
        _claim(bytes16(uint128(7)), CLAIM_1, address(receiver));
        vm.assertFalse(receiver.reentered(), "re-entrant claim refused");
        vm.assertEq(
            receiver.reentryError(),
            abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, bytes16(uint128(7)), uint64(1)),
            "refused as sold out"
        );
    }

    /// @dev Token ids of the mints (TransferSingle from the zero address) among `logs`, in order.
    function _mintedTokens(Vm.Log[] memory logs) internal view returns (uint256[] memory ids) {
        bytes32 transferSingle = IERC1155.TransferSingle.selector;
        uint256 count = 0;
        ids = new uint256[](logs.length);
        for (uint256 i = 0; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter != address(collectibles) || log.topics[0] != transferSingle) continue;
            if (log.topics[2] != bytes32(0)) continue;
            (uint256 id,) = abi.decode(log.data, (uint256, uint256));
            ids[count++] = id;
        }
        // Shortens the array to the entries written.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            mstore(ids, count)
        }
    }
}

/// @notice Read functions: counts, token lookups, and uri().
contract ViewsTest is CollectiblesTestBase {
    bytes16 internal constant UNKNOWN = bytes16(0x99999999999999999999999999999999);

    function test_collectible_RevertsWhenUnknown() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, UNKNOWN));
        collectibles.collectible(UNKNOWN);
    }

    function test_claimedCount_RevertsWhenUnknown() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, UNKNOWN));
        collectibles.claimedCount(UNKNOWN);
    }

    function test_availableCount_RevertsWhenUnknown() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, UNKNOWN));
        collectibles.availableCount(UNKNOWN);
    }

    function test_availableCount_ReachesZeroWhenSoldOut() public {
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        _claim(COLLECTIBLE, CLAIM_2, ALICE);
        _claim(COLLECTIBLE, CLAIM_3, ALICE);
        vm.assertEq(collectibles.availableCount(COLLECTIBLE), 0, "available");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), TOTAL, "claimed");
        vm.assertEq(collectibles.collectible(COLLECTIBLE).claimed, TOTAL, "record");
    }

    function test_isClaimed_ReturnsFalseBeforeClaim() public view {
        vm.assertFalse(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "not yet");
        vm.assertFalse(collectibles.isClaimed(UNKNOWN, CLAIM_1), "unknown collectible");
    }

    function test_holderOf_RevertsWhenTokenDoesNotExist() public {
        uint256 tokenId = _tokenId(COLLECTIBLE, CLAIM_1);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.TokenDoesNotExist.selector, tokenId));
        collectibles.holderOf(tokenId);
    }

    function test_editionOf_RevertsWhenTokenDoesNotExist() public {
        uint256 tokenId = _tokenId(COLLECTIBLE, CLAIM_1);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.TokenDoesNotExist.selector, tokenId));
        collectibles.editionOf(tokenId);
    }

    function test_uri_RevertsWhenTokenDoesNotExist() public {
        uint256 tokenId = _tokenId(COLLECTIBLE, CLAIM_1);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.TokenDoesNotExist.selector, tokenId));
        collectibles.uri(tokenId);
    }

    function test_uri_ReturnsBase64JsonWithEditionInName() public {
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_2, BOB);
        string memory json = string.concat(
            '{"name":"Genesis Pass #2","description":"First edition of the pass.",',
            '"image":"https://cdn.example.com/genesis.png","properties":{"edition":2,"total_supply":3,',
            '"mime_type":"image/png","collectible_id":"0x0190d3a2c1f87e4b9a6d2c5e8f1a3b7c"}}'
        );
        vm.assertEq(
            collectibles.uri(tokenId),
            string.concat("data:application/json;base64,", Base64.encode(bytes(json))),
            "uri"
        );
    }

    function test_uri_EscapesQuotesAndBackslashesInName() public {
        bytes16 id = bytes16(0x33333333333333333333333333333333);
        vm.prank(MINTER);
        collectibles.createCollectible(id, ORGANIZATION, CREATOR, 1, ICollectibles.Metadata('The "A\\B"', "", "", ""));
        uint256 tokenId = _claim(id, CLAIM_1, ALICE);
        string memory json = string.concat(
            '{"name":"The \\"A\\\\B\\" #1","description":"","image":"","properties":{"edition":1,',
            '"total_supply":1,"mime_type":"","collectible_id":"0x33333333333333333333333333333333"}}'
        );
        vm.assertEq(
            collectibles.uri(tokenId),
            string.concat("data:application/json;base64,", Base64.encode(bytes(json))),
            "uri"
        );
    }

    function test_uri_StaysTheSameAfterTransfer() public {
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        string memory before = collectibles.uri(tokenId);
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, BOB, tokenId, 1, "");
        vm.assertEq(collectibles.uri(tokenId), before, "uri");
        vm.assertEq(collectibles.editionOf(tokenId), 1, "edition travels with the token");
    }
}

/// @notice ERC-1155 balances, approvals and transfers, checked the way OpenZeppelin checks its own.
contract ERC1155BehaviourTest is CollectiblesTestBase {
    uint256 internal token1;
    uint256 internal token2;

    function setUp() public override {
        super.setUp();
        token1 = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        token2 = _claim(COLLECTIBLE, CLAIM_2, ALICE);
    }

    function test_balanceOf_ReturnsOneForHolderAndZeroOtherwise() public view {
        vm.assertEq(collectibles.balanceOf(ALICE, token1), 1, "holder");
        vm.assertEq(collectibles.balanceOf(BOB, token1), 0, "other account");
        vm.assertEq(collectibles.balanceOf(ALICE, _tokenId(COLLECTIBLE, CLAIM_3)), 0, "unminted token");
        vm.assertEq(collectibles.balanceOf(address(0), _tokenId(COLLECTIBLE, CLAIM_3)), 0, "zero address");
    }

    function test_balanceOfBatch_ReturnsBalancePerPair() public view {
        address[] memory accounts = new address[](3);
        accounts[0] = ALICE;
        accounts[1] = BOB;
        accounts[2] = ALICE;
        uint256[] memory ids = new uint256[](3);
        ids[0] = token1;
        ids[1] = token2;
        ids[2] = token2;
        uint256[] memory balances = collectibles.balanceOfBatch(accounts, ids);
        vm.assertEq(balances.length, 3, "length");
        vm.assertEq(balances[0], 1, "alice token1");
        vm.assertEq(balances[1], 0, "bob token2");
        vm.assertEq(balances[2], 1, "alice token2");
    }

    function test_balanceOfBatch_RevertsWhenLengthsDiffer() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidArrayLength.selector, 1, 2));
        collectibles.balanceOfBatch(new address[](2), new uint256[](1));
    }

    function test_setApprovalForAll_SetsAndEmits() public {
        vm.expectEmit(address(collectibles));
        emit IERC1155.ApprovalForAll(ALICE, OPERATOR, true);
        vm.prank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, true);
        vm.assertTrue(collectibles.isApprovedForAll(ALICE, OPERATOR), "approved");
        vm.assertFalse(collectibles.isApprovedForAll(BOB, OPERATOR), "only for the caller");

        vm.expectEmit(address(collectibles));
        emit IERC1155.ApprovalForAll(ALICE, OPERATOR, false);
        vm.prank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, false);
        vm.assertFalse(collectibles.isApprovedForAll(ALICE, OPERATOR), "revoked");
    }

    function test_setApprovalForAll_RevertsWhenOperatorIsZeroAddress() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidOperator.selector, address(0)));
        vm.prank(ALICE);
        collectibles.setApprovalForAll(address(0), true);
    }

    function test_safeTransferFrom_MovesTokenWhenCalledByHolder() public {
        _expectTransfer(ALICE, ALICE, BOB, token1, 1);
        vm.assertEq(collectibles.balanceOf(ALICE, token1), 0, "sender");
        vm.assertEq(collectibles.balanceOf(BOB, token1), 1, "receiver");
        vm.assertEq(collectibles.holderOf(token1), BOB, "holder");
    }

    function test_safeTransferFrom_MovesTokenWhenCalledByApprovedOperator() public {
        vm.prank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, true);
        _expectTransfer(OPERATOR, ALICE, BOB, token1, 1);
        vm.assertEq(collectibles.holderOf(token1), BOB, "holder");
    }

    function test_safeTransferFrom_RevertsWhenCallerIsNotApproved() public {
        vm.expectRevert(
            abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, OPERATOR, ALICE)
        );
        vm.prank(OPERATOR);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 1, "");
    }

    function test_safeTransferFrom_RevertsWhenApprovalWasRevoked() public {
        vm.startPrank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, true);
        collectibles.setApprovalForAll(OPERATOR, false);
        vm.stopPrank();
        vm.expectRevert(
            abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, OPERATOR, ALICE)
        );
        vm.prank(OPERATOR);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 1, "");
    }

    function test_safeTransferFrom_RevertsWhenCallerIsMinterOrAdmin() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, MINTER, ALICE));
        vm.prank(MINTER);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 1, "");
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, ADMIN, ALICE));
        vm.prank(ADMIN);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 1, "");
    }

    function test_safeTransferFrom_RevertsWhenReceiverIsZeroAddress() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(0)));
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, address(0), token1, 1, "");
    }

    function test_safeTransferFrom_RevertsWhenSenderIsZeroAddress() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidSender.selector, address(0)));
        vm.prank(address(0));
        collectibles.safeTransferFrom(address(0), BOB, token1, 1, "");
    }

    function test_safeTransferFrom_RevertsWhenValueExceedsBalance() public {
        vm.expectRevert(
            abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, ALICE, 1, 2, token1)
        );
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 2, "");
    }

    function test_safeTransferFrom_RevertsWhenSenderDoesNotHoldToken() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, BOB, 0, 1, token1));
        vm.prank(BOB);
        collectibles.safeTransferFrom(BOB, ALICE, token1, 1, "");
    }

    function test_safeTransferFrom_MovesNothingWhenValueIsZero() public {
        _expectTransfer(BOB, BOB, ALICE, token1, 0);
        vm.assertEq(collectibles.holderOf(token1), ALICE, "holder unchanged");
    }

    function test_safeTransferFrom_KeepsTokenWhenSentToSelf() public {
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, ALICE, token1, 1, "");
        vm.assertEq(collectibles.balanceOf(ALICE, token1), 1, "balance");
    }

    function test_safeTransferFrom_CallsReceiverHookWithData() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.None);
        vm.expectEmit(address(receiver));
        emit ERC1155ReceiverMock.Received(ALICE, ALICE, token1, 1, hex"c0ffee");
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, address(receiver), token1, 1, hex"c0ffee");
        vm.assertEq(collectibles.holderOf(token1), address(receiver), "holder");
    }

    function test_safeTransferFrom_RevertsWhenReceiverRejects() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.RevertWithMessage);
        vm.expectRevert(bytes("ERC1155ReceiverMock: reverting"));
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, address(receiver), token1, 1, "");
    }

    function test_safeTransferFrom_RevertsWhenReceiverPanics() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.Panic);
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x12));
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, address(receiver), token1, 1, "");
    }

    function test_safeBatchTransferFrom_MovesEveryToken() public {
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 1);
        _expectBatchTransfer(ALICE, ALICE, BOB, ids, values);
        vm.assertEq(collectibles.holderOf(token1), BOB, "token1");
        vm.assertEq(collectibles.holderOf(token2), BOB, "token2");
    }

    function test_safeBatchTransferFrom_MovesTokensWhenCalledByApprovedOperator() public {
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 0);
        vm.prank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, true);
        _expectBatchTransfer(OPERATOR, ALICE, BOB, ids, values);
        vm.assertEq(collectibles.holderOf(token1), BOB, "moved with value 1");
        vm.assertEq(collectibles.holderOf(token2), ALICE, "stays with value 0");
    }

    function test_safeBatchTransferFrom_RevertsWhenCallerIsNotApproved() public {
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 1);
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, MINTER, ALICE));
        vm.prank(MINTER);
        collectibles.safeBatchTransferFrom(ALICE, BOB, ids, values, "");
    }

    function test_safeBatchTransferFrom_RevertsWhenLengthsDiffer() public {
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidArrayLength.selector, 2, 1));
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, BOB, new uint256[](2), new uint256[](1), "");
    }

    function test_safeBatchTransferFrom_RevertsWhenReceiverIsZeroAddress() public {
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 1);
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(0)));
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, address(0), ids, values, "");
    }

    function test_safeBatchTransferFrom_RevertsWhenOneValueExceedsBalance() public {
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 2);
        vm.expectRevert(
            abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, ALICE, 1, 2, token2)
        );
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, BOB, ids, values, "");
    }

    function test_safeBatchTransferFrom_RevertsWhenTokenRepeats() public {
        uint256[] memory ids = new uint256[](2);
        ids[0] = token1;
        ids[1] = token1;
        uint256[] memory values = new uint256[](2);
        values[0] = 1;
        values[1] = 1;
        vm.expectRevert(
            abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, ALICE, 0, 1, token1)
        );
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, BOB, ids, values, "");
    }

    function test_safeBatchTransferFrom_CallsBatchReceiverHook() public {
        ERC1155ReceiverMock receiver = _receiver(ERC1155ReceiverMock.RevertType.None);
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 1);
        vm.expectEmit(address(receiver));
        emit ERC1155ReceiverMock.BatchReceived(ALICE, ALICE, ids, values, hex"01");
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, address(receiver), ids, values, hex"01");
        vm.assertEq(collectibles.balanceOf(address(receiver), token2), 1, "balance");
    }

    function test_safeBatchTransferFrom_RevertsWhenBatchReceiverRejects() public {
        ERC1155ReceiverMock receiver = new ERC1155ReceiverMock(
            IERC1155Receiver.onERC1155Received.selector, bytes4(0), ERC1155ReceiverMock.RevertType.None
        );
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 1);
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(receiver)));
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, address(receiver), ids, values, "");
    }

    function test_supportsInterface_ReportsStandardInterfaces() public view {
        vm.assertTrue(collectibles.supportsInterface(type(IERC165).interfaceId), "IERC165");
        vm.assertTrue(collectibles.supportsInterface(type(IERC1155).interfaceId), "IERC1155");
        vm.assertTrue(collectibles.supportsInterface(type(IERC1155MetadataURI).interfaceId), "metadata");
        vm.assertTrue(collectibles.supportsInterface(type(IAccessControl).interfaceId), "IAccessControl");
        vm.assertTrue(
            collectibles.supportsInterface(type(IAccessControlDefaultAdminRules).interfaceId), "default admin rules"
        );
        vm.assertFalse(collectibles.supportsInterface(0xffffffff), "0xffffffff");
        vm.assertFalse(collectibles.supportsInterface(type(IERC1155Receiver).interfaceId), "not a receiver");
    }

    function _pair(uint256 value1, uint256 value2) internal view returns (uint256[] memory ids, uint256[] memory values) {
        ids = new uint256[](2);
        ids[0] = token1;
        ids[1] = token2;
        values = new uint256[](2);
        values[0] = value1;
        values[1] = value2;
    }

    /// @dev `caller` (`from` or its operator) sends `value` of `id` to `to`; the call must emit the TransferSingle.
    function _expectTransfer(address caller, address from, address to, uint256 id, uint256 value) internal {
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(caller, from, to, id, value);
        vm.prank(caller);
        collectibles.safeTransferFrom(from, to, id, value, "");
    }

    /// @dev The batch form of `_expectTransfer`: the call must emit one TransferBatch.
    function _expectBatchTransfer(
        address caller,
        address from,
        address to,
        uint256[] memory ids,
        uint256[] memory values
    ) internal {
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferBatch(caller, from, to, ids, values);
        vm.prank(caller);
        collectibles.safeBatchTransferFrom(from, to, ids, values, "");
    }

    function _receiver(ERC1155ReceiverMock.RevertType revertType) internal returns (ERC1155ReceiverMock) {
        return new ERC1155ReceiverMock(
            IERC1155Receiver.onERC1155Received.selector, IERC1155Receiver.onERC1155BatchReceived.selector, revertType
        );
    }
}

/// @notice Roles: the minter mints, the default admin only administers roles, in two delayed steps.
contract AccessControlTest is CollectiblesTestBase {
    address internal constant NEW_ADMIN = address(0x2AD);
    bytes32 internal constant DEFAULT_ADMIN_ROLE = 0x00;

    function test_constructor_GrantsAdminAndMinter() public view {
        vm.assertEq(collectibles.defaultAdmin(), ADMIN, "admin");
        vm.assertEq(uint256(collectibles.defaultAdminDelay()), ADMIN_DELAY, "delay");
        vm.assertTrue(collectibles.hasRole(MINTER_ROLE, MINTER), "minter");
        vm.assertFalse(collectibles.hasRole(MINTER_ROLE, ADMIN), "admin is not a minter");
        vm.assertEq(collectibles.MINTER_ROLE(), MINTER_ROLE, "role id");
    }

    function test_constructor_GrantsNoMinterWhenMinterIsZeroAddress() public {
        Collectibles fresh = new Collectibles(ADMIN_DELAY, ADMIN, address(0), HOOK_GAS_BUDGET);
        vm.assertFalse(fresh.hasRole(MINTER_ROLE, address(0)), "zero address");
        vm.prank(ADMIN);
        fresh.grantRole(MINTER_ROLE, MINTER);
        vm.assertTrue(fresh.hasRole(MINTER_ROLE, MINTER), "granted later");
    }

    function test_grantRole_LetsAdminAddAndRevokeMinters() public {
        vm.prank(ADMIN);
        collectibles.grantRole(MINTER_ROLE, BOB);
        vm.prank(BOB);
        collectibles.claim(COLLECTIBLE, CLAIM_1, ALICE);

        vm.prank(ADMIN);
        collectibles.revokeRole(MINTER_ROLE, BOB);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, BOB, MINTER_ROLE)
        );
        vm.prank(BOB);
        collectibles.claim(COLLECTIBLE, CLAIM_2, ALICE);
    }

    function test_renounceRole_StopsAMinterFromMintingAndCreating() public {
        vm.prank(MINTER);
        collectibles.renounceRole(MINTER_ROLE, MINTER);
        vm.assertFalse(collectibles.hasRole(MINTER_ROLE, MINTER), "role gone");
        bytes memory refused =
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, MINTER, MINTER_ROLE);
        vm.expectRevert(refused);
        _claim(COLLECTIBLE, CLAIM_1, ALICE);
        Claim[] memory claims = new Claim[](1);
        claims[0] = Claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.expectRevert(refused);
        _batch(claims);
        vm.expectRevert(refused);
        _create(bytes16(uint128(9)), 1);
    }

    function test_grantRole_RevertsWhenCallerIsMinter() public {
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, MINTER, DEFAULT_ADMIN_ROLE)
        );
        vm.prank(MINTER);
        collectibles.grantRole(MINTER_ROLE, BOB);
    }

    function test_grantRole_RevertsWhenRoleIsDefaultAdmin() public {
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControlDefaultAdminRules.AccessControlEnforcedDefaultAdminRules.selector)
        );
        vm.prank(ADMIN);
        collectibles.grantRole(DEFAULT_ADMIN_ROLE, NEW_ADMIN);
    }

    function test_acceptDefaultAdminTransfer_TransfersAdminAfterDelay() public {
        vm.prank(ADMIN);
        collectibles.beginDefaultAdminTransfer(NEW_ADMIN);
        (address pending, uint48 schedule) = collectibles.pendingDefaultAdmin();
        vm.assertEq(pending, NEW_ADMIN, "pending");
        vm.assertEq(uint256(schedule), block.timestamp + ADMIN_DELAY, "schedule");

        vm.warp(uint256(schedule) + 1);
        vm.prank(NEW_ADMIN);
        collectibles.acceptDefaultAdminTransfer();
        vm.assertEq(collectibles.defaultAdmin(), NEW_ADMIN, "new admin");
        vm.assertFalse(collectibles.hasRole(DEFAULT_ADMIN_ROLE, ADMIN), "old admin dropped");
    }

    function test_acceptDefaultAdminTransfer_RevertsBeforeDelay() public {
        vm.prank(ADMIN);
        collectibles.beginDefaultAdminTransfer(NEW_ADMIN);
        (, uint48 schedule) = collectibles.pendingDefaultAdmin();
        vm.warp(uint256(schedule) - 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControlDefaultAdminRules.AccessControlEnforcedDefaultAdminDelay.selector, schedule
            )
        );
        vm.prank(NEW_ADMIN);
        collectibles.acceptDefaultAdminTransfer();
    }

    function test_acceptDefaultAdminTransfer_RevertsWhenCallerIsNotPendingAdmin() public {
        vm.prank(ADMIN);
        collectibles.beginDefaultAdminTransfer(NEW_ADMIN);
        vm.warp(block.timestamp + ADMIN_DELAY + 1);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControlDefaultAdminRules.AccessControlInvalidDefaultAdmin.selector, MINTER)
        );
        vm.prank(MINTER);
        collectibles.acceptDefaultAdminTransfer();
    }

    function test_beginDefaultAdminTransfer_RevertsWhenCallerIsNotAdmin() public {
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, MINTER, DEFAULT_ADMIN_ROLE)
        );
        vm.prank(MINTER);
        collectibles.beginDefaultAdminTransfer(MINTER);
    }

    function test_roles_CannotBurnOrMoveHoldersToken() public {
        uint256 tokenId = _claim(COLLECTIBLE, CLAIM_1, ALICE);
        address[2] memory roles = [ADMIN, MINTER];
        for (uint256 i = 0; i < roles.length; ++i) {
            vm.startPrank(roles[i]);
            // solhint-disable-next-line avoid-low-level-calls
            (bool burnt,) = address(collectibles).call(
                abi.encodeWithSignature("burn(address,uint256,uint256)", ALICE, tokenId, 1)
            );
            vm.assertFalse(burnt, "no burn");
            vm.expectRevert(
                abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, roles[i], ALICE)
            );
            collectibles.safeTransferFrom(ALICE, roles[i], tokenId, 1, "");
            vm.stopPrank();
        }
        vm.assertEq(collectibles.holderOf(tokenId), ALICE, "still held");
    }
}
