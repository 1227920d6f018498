// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

/// @title CodeSizeReader
/// @notice Never deployed: its creation code is run by one `eth_call` without a `to` (a "deployless" call), and the
///         constructor returns, for every address asked, its code size and the first 32 bytes of its code. So the
///         kind of many addresses (EOA, contract, EIP-7702 delegated EOA) is read in ONE call on any EVM chain.
contract CodeSizeReader {
    constructor(address[] memory accounts) {
        uint256 count = accounts.length;
        uint256[] memory sizes = new uint256[](count);
        bytes32[] memory heads = new bytes32[](count);
        for (uint256 i = 0; i < count; ++i) {
            address account = accounts[i];
            uint256 size;
            bytes32 head;
            assembly {
                size := extcodesize(account)
                let scratch := mload(0x40)
                mstore(scratch, 0)
                extcodecopy(account, scratch, 0, 32)
                head := mload(scratch)
            }
            sizes[i] = size;
            heads[i] = head;
        }
        bytes memory answer = abi.encode(sizes, heads);
        assembly {
            return(add(answer, 32), mload(answer))
        }
    }
}
