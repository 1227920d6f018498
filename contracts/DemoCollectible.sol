// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @title DemoCollectible
/// @notice The ERC-721 of the embedded local chain. Each token's URI is set at mint, so the seed gives tokens on-chain
///         `data:application/json;base64,…` metadata. Written against OpenZeppelin's interfaces rather than its
///         ERC721, whose string helpers need the Cancun `mcopy` opcode and our contracts build for paris.
contract DemoCollectible is IERC721Metadata {
    string private _name;
    string private _symbol;
    address private immutable _minter;
    mapping(uint256 tokenId => address) private _owners;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => address) private _approvals;
    mapping(address owner => mapping(address operator => bool)) private _operators;
    mapping(uint256 tokenId => string) private _uris;

    error NotMinter(address caller);
    error NonexistentToken(uint256 tokenId);
    error TokenExists(uint256 tokenId);
    error NotAuthorized(address caller, uint256 tokenId);
    error WrongOwner(address from, uint256 tokenId);
    error InvalidReceiver(address receiver);

    constructor(string memory name_, string memory symbol_) {
        _name = name_;
        _symbol = symbol_;
        _minter = msg.sender;
    }

    function mint(address to, uint256 tokenId, string calldata uri) external {
        if (msg.sender != _minter) revert NotMinter(msg.sender);
        if (to == address(0)) revert InvalidReceiver(to);
        if (_owners[tokenId] != address(0)) revert TokenExists(tokenId);
        _owners[tokenId] = to;
        _balances[to] += 1;
        _uris[tokenId] = uri;
        emit Transfer(address(0), to, tokenId);
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC165).interfaceId || interfaceId == type(IERC721).interfaceId
            || interfaceId == type(IERC721Metadata).interfaceId;
    }

    function name() external view returns (string memory) {
        return _name;
    }

    function symbol() external view returns (string memory) {
        return _symbol;
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        _requireOwned(tokenId);
        return _uris[tokenId];
    }

    function balanceOf(address owner) external view returns (uint256) {
        return _balances[owner];
    }

    function ownerOf(uint256 tokenId) external view returns (address) {
        return _requireOwned(tokenId);
    }

    function approve(address to, uint256 tokenId) external {
        address owner = _requireOwned(tokenId);
        if (msg.sender != owner && !_operators[owner][msg.sender]) revert NotAuthorized(msg.sender, tokenId);
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
        if (msg.sender != owner && _approvals[tokenId] != msg.sender && !_operators[owner][msg.sender]) {
            revert NotAuthorized(msg.sender, tokenId);
        }
        delete _approvals[tokenId];
        _balances[from] -= 1;
        _balances[to] += 1;
        _owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
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

    function _requireOwned(uint256 tokenId) private view returns (address owner) {
        owner = _owners[tokenId];
        if (owner == address(0)) revert NonexistentToken(tokenId);
    }
}
