// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Collectibles} from "../../contracts/Collectibles.sol";
import {ICollectibles} from "../../contracts/interfaces/ICollectibles.sol";
import {Vm} from "./Vm.sol";

/**
 * @notice Shared set-up and helpers for the Solidity tests: a deployed `Collectibles` with an
 * admin and a minter, one collectible of three editions, and small assertion helpers.
 */
abstract contract CollectiblesTestBase {
    /// @dev One claim as tests write it; `_runs` packs a list of them into `claimBatch`'s runs.
    struct Claim {
        bytes16 collectibleId;
        bytes16 claimId;
        address to;
    }

    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    uint48 internal constant ADMIN_DELAY = 3 days;
    address internal constant ADMIN = address(0xAD);
    address internal constant MINTER = address(0x417);
    address internal constant ALICE = address(0xA11CE);
    address internal constant BOB = address(0xB0B);
    address internal constant OPERATOR = address(0x0BE7);

    bytes16 internal constant COLLECTIBLE = bytes16(0x0190d3a2c1f87e4b9a6d2c5e8f1a3b7c);
    bytes16 internal constant ORGANIZATION = bytes16(0x0190d3a2c1f87e4b9a6d2c5e8f1a3b70);
    bytes16 internal constant CREATOR = bytes16(0x0190d3a2c1f87e4b9a6d2c5e8f1a3b71);
    bytes16 internal constant CLAIM_1 = bytes16(0x7b1e4c2a9f3d4e8b8c6a1d2e3f4a5b61);
    bytes16 internal constant CLAIM_2 = bytes16(0x7b1e4c2a9f3d4e8b8c6a1d2e3f4a5b62);
    bytes16 internal constant CLAIM_3 = bytes16(0x7b1e4c2a9f3d4e8b8c6a1d2e3f4a5b63);
    bytes16 internal constant CLAIM_4 = bytes16(0x7b1e4c2a9f3d4e8b8c6a1d2e3f4a5b64);
    uint64 internal constant TOTAL = 3;
    uint256 internal constant HOOK_GAS_BUDGET = 50_000;

    bytes32 internal constant MINTER_ROLE = keccak256("MINTER_ROLE");

    Collectibles internal collectibles;

    function setUp() public virtual {
        collectibles = new Collectibles(ADMIN_DELAY, ADMIN, MINTER, HOOK_GAS_BUDGET);
        _create(COLLECTIBLE, TOTAL);
    }

    // ---------------------------------------------------------------- actions

    function _metadata() internal pure returns (ICollectibles.Metadata memory) {
        return ICollectibles.Metadata({
            name: "Genesis Pass",
            description: "First edition of the pass.",
            image: "https://cdn.example.com/genesis.png",
            mimeType: "image/png"
        });
    }

    function _create(bytes16 id, uint64 total) internal {
        vm.prank(MINTER);
        collectibles.createCollectible(id, ORGANIZATION, CREATOR, total, _metadata());
    }

    function _claim(bytes16 collectibleId, bytes16 claimId, address to) internal returns (uint256) {
        vm.prank(MINTER);
        return collectibles.claim(collectibleId, claimId, to);
    }

    function _batch(Claim[] memory claims) internal {
        ICollectibles.ClaimRun[] memory runs = _runs(claims);
        vm.prank(MINTER);
        collectibles.claimBatch(runs);
    }

    /// @dev The next call must emit `ClaimSkipped` for `claim`, with `reason`.
    function _expectSkip(Claim memory claim, ICollectibles.SkipReason reason) internal {
        vm.expectEmit(address(collectibles));
        emit ICollectibles.ClaimSkipped(claim.collectibleId, claim.claimId, claim.to, reason);
    }

    /// @dev Consecutive claims of one collectible become one run, packed as the contract reads them.
    function _runs(Claim[] memory claims) internal pure returns (ICollectibles.ClaimRun[] memory runs) {
        uint256 count = 0;
        for (uint256 i = 0; i < claims.length; ++i) {
            if (i == 0 || claims[i].collectibleId != claims[i - 1].collectibleId) ++count;
        }
        runs = new ICollectibles.ClaimRun[](count);
        uint256 r = 0;
        for (uint256 i = 0; i < claims.length; ++i) {
            if (i > 0 && claims[i].collectibleId != claims[i - 1].collectibleId) ++r;
            runs[r].collectibleId = claims[i].collectibleId;
            runs[r].claims = abi.encodePacked(runs[r].claims, claims[i].claimId, claims[i].to);
        }
    }

    function _tokenId(bytes16 collectibleId, bytes16 claimId) internal pure returns (uint256) {
        return (uint256(uint128(collectibleId)) << 128) | uint128(claimId);
    }

    // ---------------------------------------------------------------- helpers

    /// @dev Maps any `x` into [min, max] without discarding fuzz inputs.
    function _bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        return min + (x % (max - min + 1));
    }

    /// @dev A usable receiver: not zero, not a precompile or the cheatcode address, and no code.
    function _assumeEoa(address account) internal view {
        vm.assume(uint160(account) > 0xffff && account != address(vm) && account.code.length == 0);
    }

    function _assertEq(bytes16 left, bytes16 right, string memory message) internal pure {
        vm.assertEq(bytes32(left), bytes32(right), message);
    }

    function _hash(ICollectibles.Metadata memory metadata) internal pure returns (bytes32) {
        return keccak256(abi.encode(metadata));
    }
}
