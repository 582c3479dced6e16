// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @title ERC1155MintBaseline
/// @notice Gas baseline: OpenZeppelin ERC1155 `_mint` with no access control, cap or guard.
contract ERC1155MintBaseline is ERC1155("") {
    /// @notice Mints one unit of token `id` to `to`.
    /// @param to Receiver.
    /// @param id Token id.
    function mint(address to, uint256 id) external {
        _mint(to, id, 1, "");
    }

    /// @notice Mints one unit of `ids[i]` to `to[i]` for every i, in one transaction.
    /// @param to Receivers.
    /// @param ids Token ids, as many as receivers.
    function mintBatch(address[] calldata to, uint256[] calldata ids) external {
        for (uint256 i = 0; i < to.length; ++i) {
            _mint(to[i], ids[i], 1, "");
        }
    }
}

/// @title ERC721MintBaseline
/// @notice Gas baseline: OpenZeppelin ERC721 `_mint` with no access control, cap or guard.
contract ERC721MintBaseline is ERC721("Baseline", "BASE") {
    /// @notice Mints token `id` to `to`.
    /// @param to Receiver.
    /// @param id Token id.
    function mint(address to, uint256 id) external {
        _mint(to, id);
    }
}
