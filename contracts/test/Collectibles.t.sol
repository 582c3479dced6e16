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
import {CollectiblesTestBase} from "./utils/CollectiblesTestBase.sol";

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

/// @notice claimBatch: all claims or none, with the same rules as claim.
contract ClaimBatchTest is CollectiblesTestBase {
    bytes16 internal constant SECOND = bytes16(0x22222222333344445555666666666666);

    function test_claimBatch_MintsEveryClaimInOrder() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](3);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, BOB);
        claims[2] = ICollectibles.Claim(COLLECTIBLE, CLAIM_3, ALICE);
        _batch(claims);
        vm.assertEq(collectibles.holderOf(_tokenId(COLLECTIBLE, CLAIM_1)), ALICE, "holder 1");
        vm.assertEq(collectibles.holderOf(_tokenId(COLLECTIBLE, CLAIM_2)), BOB, "holder 2");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_1)), 1, "edition 1");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 2, "edition 2");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_3)), 3, "edition 3");
        vm.assertEq(collectibles.availableCount(COLLECTIBLE), 0, "available");
    }

    function test_claimBatch_EmitsTransferSinglePerClaim() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, BOB);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(MINTER, address(0), ALICE, _tokenId(COLLECTIBLE, CLAIM_1), 1);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(MINTER, address(0), BOB, _tokenId(COLLECTIBLE, CLAIM_2), 1);
        _batch(claims);
    }

    function test_claimBatch_MintsAcrossCollectibles() public {
        _create(SECOND, 1);
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(SECOND, CLAIM_1, ALICE);
        _batch(claims);
        uint256 first = _tokenId(COLLECTIBLE, CLAIM_1);
        uint256 second = _tokenId(SECOND, CLAIM_1);
        vm.assertNotEq(first, second, "same claim id, different collectibles, different tokens");
        vm.assertEq(collectibles.editionOf(first), 1, "edition in first");
        vm.assertEq(collectibles.editionOf(second), 1, "edition in second");
    }

    function test_claimBatch_NumbersEditionsAcrossInterleavedCollectibles() public {
        _create(SECOND, 3);
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](5);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(SECOND, CLAIM_1, ALICE);
        claims[2] = ICollectibles.Claim(SECOND, CLAIM_2, BOB);
        claims[3] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, BOB);
        claims[4] = ICollectibles.Claim(SECOND, CLAIM_3, BOB);
        _batch(claims);
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_1)), 1, "first, 1");
        vm.assertEq(collectibles.editionOf(_tokenId(COLLECTIBLE, CLAIM_2)), 2, "first, 2");
        vm.assertEq(collectibles.editionOf(_tokenId(SECOND, CLAIM_1)), 1, "second, 1");
        vm.assertEq(collectibles.editionOf(_tokenId(SECOND, CLAIM_2)), 2, "second, 2");
        vm.assertEq(collectibles.editionOf(_tokenId(SECOND, CLAIM_3)), 3, "second, 3");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 2, "first counted");
        vm.assertEq(collectibles.claimedCount(SECOND), 3, "second counted");
    }

    function test_claimBatch_RevertsWithSoldOutBeforeMintingAnyClaimOfARunThatDoesNotFit() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](4);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[2] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, ALICE);
        claims[3] = ICollectibles.Claim(COLLECTIBLE, CLAIM_3, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, COLLECTIBLE, TOTAL));
        _batch(claims);
    }

    function test_claimBatch_RevertsWhenEmpty() public {
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.EmptyBatch.selector));
        _batch(new ICollectibles.Claim[](0));
    }

    function test_claimBatch_RevertsWhenClaimIdRepeatsInsideBatch() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, BOB);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.ClaimAlreadyMinted.selector, COLLECTIBLE, CLAIM_1));
        _batch(claims);
        vm.assertFalse(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "nothing minted");
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 0, "nothing counted");
    }

    function test_claimBatch_RevertsWhenBatchExceedsSupply() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](4);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, ALICE);
        claims[2] = ICollectibles.Claim(COLLECTIBLE, CLAIM_3, ALICE);
        claims[3] = ICollectibles.Claim(COLLECTIBLE, CLAIM_4, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, COLLECTIBLE, TOTAL));
        _batch(claims);
        vm.assertEq(collectibles.claimedCount(COLLECTIBLE), 0, "all or nothing");
    }

    function test_claimBatch_RevertsWhenOneCollectibleIsUnknown() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(SECOND, CLAIM_2, ALICE);
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, SECOND));
        _batch(claims);
    }

    function test_claimBatch_RevertsWhenOneReceiverIsZeroAddress() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, address(0));
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(0)));
        _batch(claims);
    }

    function test_claimBatch_RevertsWhenOneReceiverRejects() public {
        NonReceiverMock receiver = new NonReceiverMock();
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        claims[1] = ICollectibles.Claim(COLLECTIBLE, CLAIM_2, address(receiver));
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(receiver)));
        _batch(claims);
        vm.assertFalse(collectibles.isClaimed(COLLECTIBLE, CLAIM_1), "first claim rolled back");
    }

    function test_claimBatch_RevertsWhenCallerIsNotMinter() public {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](1);
        claims[0] = ICollectibles.Claim(COLLECTIBLE, CLAIM_1, ALICE);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, BOB, MINTER_ROLE)
        );
        vm.prank(BOB);
        collectibles.claimBatch(claims);
    }

    function _batch(ICollectibles.Claim[] memory claims) internal {
        vm.prank(MINTER);
        collectibles.claimBatch(claims);
    }
}

/// @notice A receiver that is also a minter re-enters claim from its hook: the cap and the edition
/// numbers hold, because claims are counted before any receiver hook runs.
contract ReentrancyTest is CollectiblesTestBase {
    bytes16 internal constant SMALL = bytes16(0x44444444444444444444444444444444);
    ReentrantMinterMock internal receiver;

    function setUp() public override {
        super.setUp();
        receiver = new ReentrantMinterMock(collectibles);
        vm.prank(ADMIN);
        collectibles.grantRole(MINTER_ROLE, address(receiver));
        _create(SMALL, 2);
    }

    function test_claimBatch_CountsTheWholeRunBeforeAnyReceiverHook() public {
        receiver.arm(SMALL, CLAIM_3);
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](2);
        claims[0] = ICollectibles.Claim(SMALL, CLAIM_1, address(receiver));
        claims[1] = ICollectibles.Claim(SMALL, CLAIM_2, ALICE);
        vm.prank(MINTER);
        collectibles.claimBatch(claims);

        vm.assertEq(receiver.claimedSeen(), 2, "the hook already sees both claims counted");
        vm.assertFalse(receiver.reentered(), "re-entrant claim refused");
        vm.assertEq(
            receiver.reentryError(),
            abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, SMALL, uint64(2)),
            "refused as sold out"
        );
        vm.assertEq(collectibles.claimedCount(SMALL), 2, "claimed == total");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_1)), 1, "edition 1");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_2)), 2, "edition 2");
    }

    function test_claim_GivesAReentrantClaimTheNextEdition() public {
        receiver.arm(SMALL, CLAIM_2);
        _claim(SMALL, CLAIM_1, address(receiver));
        vm.assertTrue(receiver.reentered(), "re-entrant claim minted");
        vm.assertEq(receiver.claimedSeen(), 1, "hook saw its own claim counted");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_1)), 1, "outer claim");
        vm.assertEq(collectibles.editionOf(_tokenId(SMALL, CLAIM_2)), 2, "re-entrant claim");
        vm.expectRevert(abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, SMALL, uint64(2)));
        _claim(SMALL, CLAIM_3, ALICE);
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
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(ALICE, ALICE, BOB, token1, 1);
        vm.prank(ALICE);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 1, "");
        vm.assertEq(collectibles.balanceOf(ALICE, token1), 0, "sender");
        vm.assertEq(collectibles.balanceOf(BOB, token1), 1, "receiver");
        vm.assertEq(collectibles.holderOf(token1), BOB, "holder");
    }

    function test_safeTransferFrom_MovesTokenWhenCalledByApprovedOperator() public {
        vm.prank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, true);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(OPERATOR, ALICE, BOB, token1, 1);
        vm.prank(OPERATOR);
        collectibles.safeTransferFrom(ALICE, BOB, token1, 1, "");
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
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferSingle(BOB, BOB, ALICE, token1, 0);
        vm.prank(BOB);
        collectibles.safeTransferFrom(BOB, ALICE, token1, 0, "");
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
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferBatch(ALICE, ALICE, BOB, ids, values);
        vm.prank(ALICE);
        collectibles.safeBatchTransferFrom(ALICE, BOB, ids, values, "");
        vm.assertEq(collectibles.holderOf(token1), BOB, "token1");
        vm.assertEq(collectibles.holderOf(token2), BOB, "token2");
    }

    function test_safeBatchTransferFrom_MovesTokensWhenCalledByApprovedOperator() public {
        (uint256[] memory ids, uint256[] memory values) = _pair(1, 0);
        vm.prank(ALICE);
        collectibles.setApprovalForAll(OPERATOR, true);
        vm.expectEmit(address(collectibles));
        emit IERC1155.TransferBatch(OPERATOR, ALICE, BOB, ids, values);
        vm.prank(OPERATOR);
        collectibles.safeBatchTransferFrom(ALICE, BOB, ids, values, "");
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
        Collectibles fresh = new Collectibles(ADMIN_DELAY, ADMIN, address(0));
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
