// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/**
 * @title LargeRevertReceiverMock
 * @notice A receiver whose ERC-1155 hook always refuses by reverting with `Refused(bytes)` whose
 * payload is `payloadBytes` zero bytes (68 + `payloadBytes` bytes of revert data, the payload not
 * padded to whole words), after touching `memoryBytes` of its memory. A payload of
 * hundreds of kilobytes makes the revert data a caller might copy huge; with `memoryBytes` set to
 * the same size a small payload gives a hook that costs the same but answers little, so a test
 * can tell what the revert data alone costs the caller.
 */
contract LargeRevertReceiverMock {
    /// @notice The hook's refusal; `payload` is all zeros.
    /// @param payload `payloadBytes` zero bytes.
    error Refused(bytes payload);

    uint256 private immutable _payloadBytes;
    uint256 private immutable _memoryBytes;

    constructor(uint256 payloadBytes, uint256 memoryBytes) {
        _payloadBytes = payloadBytes;
        _memoryBytes = memoryBytes;
    }

    /// @notice Always reverts with `Refused` (ERC-1155's single-token hook).
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external view returns (bytes4) {
        _refuse();
    }

    /// @notice Always reverts with `Refused` (ERC-1155's batch hook).
    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        view
        returns (bytes4)
    {
        _refuse();
    }

    function _refuse() private view {
        bytes4 selector = Refused.selector;
        uint256 payload = _payloadBytes;
        uint256 touched = _memoryBytes;
        // Builds the revert data in place rather than allocating `payload` bytes in Solidity, so
        // that the hook's cost is memory expansion only and the same for either size.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            mstore(ptr, selector)
            mstore(add(ptr, 0x04), 0x20)
            mstore(add(ptr, 0x24), payload)
            // Memory is zero past what was written, so the payload needs no writes of its own.
            // Not padded to whole words, so that a test can make the revert data any length.
            let size := add(0x44, payload)
            if gt(touched, size) { mstore(add(ptr, sub(touched, 0x20)), 0) }
            revert(ptr, size)
        }
    }
}
