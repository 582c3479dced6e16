// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";

/**
 * @title GasBurningReceiver
 * @notice A receiver whose hooks burn `_gasToBurn()` gas, then accept. The burner mocks differ
 * only in where that amount comes from.
 */
abstract contract GasBurningReceiver is IERC1155Receiver {
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

    /// @notice The gas a hook burns.
    /// @return The amount.
    function _gasToBurn() internal view virtual returns (uint256);

    /// @dev Loops until `_gasToBurn()` gas is gone; with less than that left it runs out of gas.
    function _spend() private view {
        uint256 start = gasleft();
        uint256 amount = _gasToBurn();
        uint256 stop = start > amount ? start - amount : 0;
        // Spending gas is the whole point of the loop.
        // solhint-disable-next-line no-empty-blocks
        while (gasleft() > stop) {}
    }
}
