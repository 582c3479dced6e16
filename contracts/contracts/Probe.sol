// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Probe { uint256 public x; function set(uint256 v) external { x = v; } }
