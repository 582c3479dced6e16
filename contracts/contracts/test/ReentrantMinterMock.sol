// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {ICollectibles} from "../interfaces/ICollectibles.sol";

/**
 * @title ReentrantMinterMock
 * @notice A receiver that also holds the minter role and, from its ERC-1155 hook, tries to claim
 * one more token of a collectible, recording what it saw. Tests use it to show that re-entering
 * `claim` from a receiver hook can never mint past the total or reuse an edition.
 */
contract ReentrantMinterMock is IERC1155Receiver {
    ICollectibles private immutable _collectibles;
    bytes16 private _collectibleId;
    bytes16 private _claimId;
    bool private _armed;

    /// @notice `claimedCount` of the collectible as the hook saw it.
    uint64 public claimedSeen;
    /// @notice Whether the re-entrant claim minted.
    bool public reentered;
    /// @notice Revert data of the re-entrant claim when it failed.
    bytes public reentryError;

    constructor(ICollectibles collectibles) {
        _collectibles = collectibles;
    }

    /// @notice Makes the next received token trigger one re-entrant claim.
    /// @param collectibleId Collectible to claim from inside the hook.
    /// @param claimId Claim id of the re-entrant claim.
    function arm(bytes16 collectibleId, bytes16 claimId) external {
        _collectibleId = collectibleId;
        _claimId = claimId;
        _armed = true;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external returns (bytes4) {
        if (_armed) {
            _armed = false;
            claimedSeen = _collectibles.claimedCount(_collectibleId);
            try _collectibles.claim(_collectibleId, _claimId, address(this)) {
                reentered = true;
            } catch (bytes memory reason) {
                reentryError = reason;
            }
        }
        return IERC1155Receiver.onERC1155Received.selector;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return IERC1155Receiver.onERC1155BatchReceived.selector;
    }

    /// @inheritdoc IERC165
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC1155Receiver).interfaceId || interfaceId == type(IERC165).interfaceId;
    }
}
