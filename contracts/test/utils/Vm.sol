// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/**
 * @notice The few cheatcodes these tests use, as Hardhat's Solidity test runner (EDR) serves them
 * at the Foundry cheatcode address. forge-std is not available from npm, so this is the subset of
 * its `Vm` interface we need, with the same signatures.
 */
interface Vm {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    // ------------------------------------------------------------ environment
    function prank(address msgSender) external;
    function startPrank(address msgSender) external;
    function stopPrank() external;
    function warp(uint256 newTimestamp) external;
    function etch(address target, bytes calldata newRuntimeBytecode) external;

    // ------------------------------------------------------------ fuzzer
    function assume(bool condition) external pure;

    // ------------------------------------------------------------ expectations
    function expectRevert(bytes calldata revertData) external;
    function expectRevert(bytes4 revertData) external;
    function expectEmit(address emitter) external;
    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory logs);

    // ------------------------------------------------------------ assertions (revert on failure)
    function assertTrue(bool condition, string calldata message) external pure;
    function assertFalse(bool condition, string calldata message) external pure;
    function assertEq(uint256 left, uint256 right, string calldata message) external pure;
    function assertEq(address left, address right, string calldata message) external pure;
    function assertEq(bytes32 left, bytes32 right, string calldata message) external pure;
    function assertEq(bool left, bool right, string calldata message) external pure;
    function assertEq(string calldata left, string calldata right, string calldata message) external pure;
    function assertEq(bytes calldata left, bytes calldata right, string calldata message) external pure;
    function assertNotEq(uint256 left, uint256 right, string calldata message) external pure;
    function assertLe(uint256 left, uint256 right, string calldata message) external pure;
}
