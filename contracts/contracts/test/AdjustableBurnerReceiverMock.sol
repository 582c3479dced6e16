// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GasBurningReceiver} from "./GasBurningReceiver.sol";

/**
 * @title AdjustableBurnerReceiverMock
 * @notice A receiver whose hook burns the gas last set with `setBurn`, then accepts: a hook that
 * costs more when a transaction is mined than when it was estimated.
 */
contract AdjustableBurnerReceiverMock is GasBurningReceiver {
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

    function _gasToBurn() internal view override returns (uint256) {
        return burn;
    }
}
