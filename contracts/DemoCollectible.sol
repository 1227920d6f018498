// SPDX-License-Identifier: MIT
// Copyright (c) 2026 chain-identity-api authors
pragma solidity ^0.8.20;

import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {Erc721Transfers} from "./Erc721Transfers.sol";

/// @title DemoCollectible
/// @notice The ERC-721 of the embedded local chain. Each token's URI is set at mint, so the seed gives tokens on-chain
///         `data:application/json;base64,…` metadata. Transfers and approvals are Erc721Transfers'.
contract DemoCollectible is Erc721Transfers, IERC721Metadata {
    string private _name;
    string private _symbol;
    address private immutable _minter;
    mapping(uint256 tokenId => string) private _uris;

    error NotMinter(address caller);
    error NonexistentToken(uint256 tokenId);
    error TokenExists(uint256 tokenId);
    error NotAuthorized(address caller, uint256 tokenId);

    constructor(string memory name_, string memory symbol_) {
        _name = name_;
        _symbol = symbol_;
        _minter = msg.sender;
    }

    function mint(address to, uint256 tokenId, string calldata uri) external {
        if (msg.sender != _minter) revert NotMinter(msg.sender);
        if (to == address(0)) revert InvalidReceiver(to);
        if (_holder(tokenId) != address(0)) revert TokenExists(tokenId);
        _uris[tokenId] = uri;
        _move(address(0), to, tokenId);
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

    function _requireOwned(uint256 tokenId) internal view override returns (address owner) {
        owner = _holder(tokenId);
        if (owner == address(0)) revert NonexistentToken(tokenId);
    }

    function _revertNotAuthorized(address caller, uint256 tokenId) internal pure override {
        revert NotAuthorized(caller, tokenId);
    }
}
