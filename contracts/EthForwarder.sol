// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

/// @title EthForwarder
/// @notice Passes the ETH it is sent on to a recipient with a call: the smallest contract that moves ETH inside a
///         transaction (an internal transfer), which only a block trace shows; the webhook tests send through it.
contract EthForwarder {
    error ForwardFailed(address to);

    /// @notice Sends all of `msg.value` to `to`; reverts (returning the ETH) when `to` refuses it.
    function forward(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        if (!ok) revert ForwardFailed(to);
    }
}
