// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @title Erc721Transfers
/// @notice The ERC-721 ledger of the embedded chain's tokens (DemoCollectible, EthNameRegistrar): owners, balances,
///         approvals and operators, with IERC721's reads, approvals and (safe) transfers over them. Written against
///         OpenZeppelin's interfaces rather than its ERC721, whose string helpers need the Cancun `mcopy` opcode while
///         our contracts build for paris. A contract built on it says when a token is live (`_requireOwned`: a
///         registrar's name also lapses at expiry) and how it refuses a caller who may not approve or move a token
///         (`_revertNotAuthorized`), and adds `supportsInterface`. Abstract: its artifact has no bytecode to deploy.
abstract contract Erc721Transfers is IERC721 {
    mapping(uint256 tokenId => address) private _owners;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => address) private _approvals;
    mapping(address owner => mapping(address operator => bool)) private _operators;

    error WrongOwner(address from, uint256 tokenId);
    error InvalidReceiver(address receiver);

    function balanceOf(address owner) external view returns (uint256) {
        return _balances[owner];
    }

    function ownerOf(uint256 tokenId) external view returns (address) {
        return _requireOwned(tokenId);
    }

    function approve(address to, uint256 tokenId) external {
        address owner = _requireOwned(tokenId);
        if (msg.sender != owner && !_operators[owner][msg.sender]) _revertNotAuthorized(msg.sender, tokenId);
        _approvals[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        _requireOwned(tokenId);
        return _approvals[tokenId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return _operators[owner][operator];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address owner = _requireOwned(tokenId);
        if (owner != from) revert WrongOwner(from, tokenId);
        if (to == address(0)) revert InvalidReceiver(to);
        if (!_isAuthorized(owner, msg.sender, tokenId)) _revertNotAuthorized(msg.sender, tokenId);
        _move(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            try IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data) returns (bytes4 answer) {
                if (answer != IERC721Receiver.onERC721Received.selector) revert InvalidReceiver(to);
            } catch {
                revert InvalidReceiver(to);
            }
        }
    }

    /// @dev The owner of a live token; reverts with the contract's own error when there is none.
    function _requireOwned(uint256 tokenId) internal view virtual returns (address owner);

    /// @dev Reverts with the contract's own error: `caller` may not approve or move `tokenId`.
    function _revertNotAuthorized(address caller, uint256 tokenId) internal pure virtual;

    /// @dev Whether `spender` is the owner, one of its operators, or approved for `tokenId`.
    function _isAuthorized(address owner, address spender, uint256 tokenId) internal view returns (bool) {
        return spender == owner || _operators[owner][spender] || _approvals[tokenId] == spender;
    }

    /// @dev Who the ledger gives `tokenId` to, live or not; address(0) when it was never minted.
    function _holder(uint256 tokenId) internal view returns (address) {
        return _owners[tokenId];
    }

    /// @dev Gives `tokenId` to `to`, debiting `from` unless it is address(0) (a mint), and clears its approval.
    function _move(address from, address to, uint256 tokenId) internal {
        if (from != address(0)) _balances[from] -= 1;
        delete _approvals[tokenId];
        _owners[tokenId] = to;
        _balances[to] += 1;
        emit Transfer(from, to, tokenId);
    }
}
