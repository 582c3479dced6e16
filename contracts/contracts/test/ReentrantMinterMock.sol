// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {ICollectibles} from "../interfaces/ICollectibles.sol";

/**
 * @title ReentrantMinterMock
 * @notice A receiver that also holds the minter role and, from its ERC-1155 hook, claims one more
 * token of a collectible (with `claim` or with a one-claim `claimBatch`), recording what it saw.
 * Tests use it to show that re-entering from a receiver hook can never mint past the total, and
 * that editions still follow the order of the mint events.
 */
contract ReentrantMinterMock is IERC1155Receiver {
    ICollectibles private immutable _collectibles;
    bytes16 private _collectibleId;
    bytes16 private _claimId;
    address private _to;
    bool private _viaBatch;
    bool private _thenRefuse;
    bool private _armed;

    /// @notice `claimedCount` of the collectible as the hook saw it.
    uint64 public claimedSeen;
    /// @notice Whether the re-entrant claim call returned without reverting.
    bool public reentered;
    /// @notice Revert data of the re-entrant claim when it failed.
    bytes public reentryError;

    constructor(ICollectibles collectibles) {
        _collectibles = collectibles;
    }

    /// @notice Makes the next received token trigger one re-entrant claim.
    /// @param collectibleId Collectible to claim from inside the hook.
    /// @param claimId Claim id of the re-entrant claim.
    /// @param to Receiver of the re-entrant claim (zero: this contract).
    /// @param viaBatch Claim with `claimBatch` (one run of one claim) instead of `claim`.
    /// @param thenRefuse After claiming, refuse the token that triggered the hook.
    function arm(bytes16 collectibleId, bytes16 claimId, address to, bool viaBatch, bool thenRefuse) external {
        _collectibleId = collectibleId;
        _claimId = claimId;
        _to = to == address(0) ? address(this) : to;
        _viaBatch = viaBatch;
        _thenRefuse = thenRefuse;
        _armed = true;
    }

    /// @inheritdoc IERC1155Receiver
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external returns (bytes4) {
        bool refuse = false;
        if (_armed) {
            refuse = _thenRefuse;
            _armed = false;
            claimedSeen = _collectibles.claimedCount(_collectibleId);
            if (_viaBatch) {
                ICollectibles.ClaimRun[] memory runs = new ICollectibles.ClaimRun[](1);
                runs[0] = ICollectibles.ClaimRun(_collectibleId, abi.encodePacked(_claimId, _to));
                try _collectibles.claimBatch(runs) {
                    reentered = true;
                } catch (bytes memory reason) {
                    reentryError = reason;
                }
            } else {
                try _collectibles.claim(_collectibleId, _claimId, _to) {
                    reentered = true;
                } catch (bytes memory reason) {
                    reentryError = reason;
                }
            }
        }
        return refuse ? bytes4(0) : IERC1155Receiver.onERC1155Received.selector;
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
