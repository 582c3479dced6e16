// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";

/**
 * @title AdjustableBurnerReceiverMock
 * @notice A receiver whose hook burns the gas last set with `setBurn`, then accepts: a hook that
 * costs more when a transaction is mined than when it was estimated.
 */
contract AdjustableBurnerReceiverMock is IERC1155Receiver {
    /// @notice The gas the hook burns.
    uint256 public burn;

    constructor(uint256 initialBurn) {
        burn = initialBurn;
    }

    /// @notice Sets the gas the hook burns from now on.
    /// @param newBurn The gas to burn.
    function setBurn(uint256 newBurn) external {
        burn = newBurn;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external view returns (bytes4) {
        _spend();
        return IERC1155Receiver.onERC1155Received.selector;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        view
        returns (bytes4)
    {
        _spend();
        return IERC1155Receiver.onERC1155BatchReceived.selector;
    }

    /// @inheritdoc IERC165
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC1155Receiver).interfaceId || interfaceId == type(IERC165).interfaceId;
    }

    /// @dev Loops until `burn` gas is gone.
    function _spend() private view {
        uint256 start = gasleft();
        uint256 amount = burn;
        uint256 stop = start > amount ? start - amount : 0;
        // Spending gas is the whole point of the loop.
        // solhint-disable-next-line no-empty-blocks
        while (gasleft() > stop) {}
    }
}
