// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

/// @title Multicall3
/// @notice Runs many calls in one `eth_call`. Answers to the canonical Multicall3 selectors that viem and other
///         clients use (`aggregate3` and the block/balance read helpers), so the local chain batches reads the
///         way mainnet does. It holds no state and is placed at 0xcA11bde05977b3631167028862bE2a173976CA11.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Calls each target with its calldata, in order, and returns every outcome.
    /// @dev A failed call whose `allowFailure` is false reverts the whole batch with
    ///      `Error("Multicall3: call <index> failed")`. Sent ETH is not forwarded; it stays here.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        uint256 count = calls.length;
        returnData = new Result[](count);
        for (uint256 i = 0; i < count; ++i) {
            Call3 calldata item = calls[i];
            (bool success, bytes memory data) = item.target.call(item.callData);
            if (!success && !item.allowFailure) {
                revert(string.concat("Multicall3: call ", _toDecimal(i), " failed"));
            }
            returnData[i] = Result({success: success, returnData: data});
        }
    }

    function getBlockNumber() external view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }

    function getCurrentBlockTimestamp() external view returns (uint256 timestamp) {
        timestamp = block.timestamp;
    }

    function getEthBalance(address addr) external view returns (uint256 balance) {
        balance = addr.balance;
    }

    function getBasefee() external view returns (uint256 basefee) {
        basefee = block.basefee;
    }

    function getChainId() external view returns (uint256 chainid) {
        chainid = block.chainid;
    }

    /// @dev Base-10 digits of `value`, for the revert reason.
    function _toDecimal(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 rest = value; rest != 0; rest /= 10) ++digits;
        bytes memory text = new bytes(digits);
        for (uint256 rest = value; rest != 0; rest /= 10) {
            text[--digits] = bytes1(uint8(48 + (rest % 10)));
        }
        return string(text);
    }
}
