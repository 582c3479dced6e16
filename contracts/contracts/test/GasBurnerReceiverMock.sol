// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GasBurningReceiver} from "./GasBurningReceiver.sol";

/**
 * @title GasBurnerReceiverMock
 * @notice A receiver whose hook burns a set amount of gas, then accepts. Set above the token
 * contract's hook budget it runs out of gas: the "gas burner" a bounded hook budget is for.
 */
contract GasBurnerReceiverMock is GasBurningReceiver {
    uint256 private immutable _burn;

    constructor(uint256 burn) {
        _burn = burn;
    }

    function _gasToBurn() internal view override returns (uint256) {
        return _burn;
    }
}
