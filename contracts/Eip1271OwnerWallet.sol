// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title Eip1271OwnerWallet
/// @notice The smallest smart-contract wallet that signs in with SIWE: one owner EOA, and EIP-1271
///         `isValidSignature` answering the magic value when the owner signed the hash. Signature checkers
///         (viem's `verifyMessage`, the ERC-6492 universal validator) pass the EIP-191 hash of the message, so the
///         owner signs with plain `personal_sign` and the wallet recovers from the hash exactly as given.
contract Eip1271OwnerWallet {
    /// @dev `bytes4(keccak256("isValidSignature(bytes32,bytes)"))`, EIP-1271's answer for a valid signature.
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    /// @dev Any other value means invalid; answering (not reverting) lets callers tell "no" from "broken".
    bytes4 internal constant INVALID = 0xffffffff;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice EIP-1271: whether `signature` is the owner's ECDSA signature of `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(hash, signature);
        return err == ECDSA.RecoverError.NoError && signer == owner ? MAGIC_VALUE : INVALID;
    }
}

/// @title Eip1271OwnerWalletFactory
/// @notice Deploys Eip1271OwnerWallets with CREATE2, so a wallet has its address before it has code: the factory an
///         ERC-6492 signature names to deploy a counterfactual wallet while its signature is checked.
contract Eip1271OwnerWalletFactory {
    event WalletCreated(address indexed wallet, address indexed owner, bytes32 salt);

    /// @notice Deploys the wallet of `owner` and `salt`, or returns it when it exists (ERC-6492 asks for idempotence).
    function createWallet(address owner, bytes32 salt) external returns (address wallet) {
        wallet = walletAddress(owner, salt);
        if (wallet.code.length > 0) return wallet;
        wallet = address(new Eip1271OwnerWallet{salt: salt}(owner));
        emit WalletCreated(wallet, owner, salt);
    }

    /// @notice The address `createWallet(owner, salt)` deploys to.
    function walletAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(Eip1271OwnerWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}
