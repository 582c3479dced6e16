// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";

/**
 * @title GasBurnerReceiverMock
 * @notice A receiver whose hook burns a set amount of gas, then accepts. Set above the token
 * contract's hook budget it runs out of gas: the "gas burner" a bounded hook budget is for.
 */
contract GasBurnerReceiverMock is IERC1155Receiver {
    uint256 private immutable _burn;

    constructor(uint256 burn) {
        _burn = burn;
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

    /// @dev Loops until `_burn` gas is gone; with less than that left it runs out of gas.
    function _spend() private view {
        uint256 start = gasleft();
        uint256 stop = start > _burn ? start - _burn : 0;
        // Spending gas is the whole point of the loop.
        // solhint-disable-next-line no-empty-blocks
        while (gasleft() > stop) {}
    }
}
