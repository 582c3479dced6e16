// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";

/**
 * @title ERC1155ReceiverMock
 * @notice Test receiver whose ERC-1155 hooks answer with configurable values or revert in a chosen
 * way, modelled on OpenZeppelin's own `ERC1155ReceiverMock`. It records every call in an event so
 * tests can check the arguments a token contract passed.
 */
contract ERC1155ReceiverMock is IERC1155Receiver {
    /// @notice How a hook misbehaves.
    enum RevertType {
        None,
        RevertWithoutMessage,
        RevertWithMessage,
        RevertWithCustomError,
        Panic
    }

    /// @notice `onERC1155Received` was called with these arguments.
    /// @param operator Caller of the token contract.
    /// @param from Previous holder (zero for a mint).
    /// @param id Token id.
    /// @param value Amount.
    /// @param data Data passed along with the transfer.
    event Received(address operator, address from, uint256 id, uint256 value, bytes data);

    /// @notice `onERC1155BatchReceived` was called with these arguments.
    /// @param operator Caller of the token contract.
    /// @param from Previous holder.
    /// @param ids Token ids.
    /// @param values Amounts, one per id.
    /// @param data Data passed along with the transfer.
    event BatchReceived(address operator, address from, uint256[] ids, uint256[] values, bytes data);

    /// @notice Raised by a hook configured with `RevertWithCustomError`.
    error CustomError(bytes4 retval);

    bytes4 private immutable _singleRetval;
    bytes4 private immutable _batchRetval;
    RevertType private immutable _revertType;

    constructor(bytes4 singleRetval, bytes4 batchRetval, RevertType revertType) {
        _singleRetval = singleRetval;
        _batchRetval = batchRetval;
        _revertType = revertType;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes calldata data)
        external
        returns (bytes4)
    {
        _misbehave(_singleRetval);
        emit Received(operator, from, id, value, data);
        return _singleRetval;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155BatchReceived(
        address operator,
        address from,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external returns (bytes4) {
        _misbehave(_batchRetval);
        emit BatchReceived(operator, from, ids, values, data);
        return _batchRetval;
    }

    /// @inheritdoc IERC165
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC1155Receiver).interfaceId || interfaceId == type(IERC165).interfaceId;
    }

    function _misbehave(bytes4 retval) private view {
        RevertType revertType = _revertType;
        if (revertType == RevertType.RevertWithoutMessage) {
            // solhint-disable-next-line reason-string, gas-custom-errors
            revert();
        } else if (revertType == RevertType.RevertWithMessage) {
            // solhint-disable-next-line gas-custom-errors
            revert("ERC1155ReceiverMock: reverting");
        } else if (revertType == RevertType.RevertWithCustomError) {
            revert CustomError(retval);
        } else if (revertType == RevertType.Panic) {
            uint256 zero = 0;
            // Division by zero raises Panic(0x12) on purpose.
            uint256 never = 1 / zero;
            zero = never;
        }
    }
}

/// @title NonReceiverMock
/// @notice A contract with no ERC-1155 hooks at all: tokens sent to it must be refused.
contract NonReceiverMock {
    /// @notice Anything, so the contract has code.
    function ping() external pure returns (bool) {
        return true;
    }
}
