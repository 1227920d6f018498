// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Erc721Transfers} from "./Erc721Transfers.sol";

/// @dev The registry writes the registrar needs (ENSRegistry of @ensdomains/ens).
interface IEthRegistrarRegistry {
    function setSubnodeOwner(bytes32 node, bytes32 label, address owner) external returns (bytes32);
}

/**
 * The `.eth` registrar of the embedded chain, in the style of ENS's BaseRegistrar: each second-level name is an
 * ERC-721 token (tokenId = labelhash) with an expiry; the token owner is the name's registrant, and the registry
 * owner of the name (which the registrant can reclaim) is its controller. Unlike BaseRegistrar it takes the label
 * itself and puts it in `NameRegistered`, as ENS's registrar controller does, so names can be listed from events.
 * Transfers and approvals are Erc721Transfers'; a name's token is live only until it expires.
 */
contract EthNameRegistrar is Erc721Transfers, Ownable {
    /// @notice After expiry, only the registrant may renew for this long; then anyone may register the name.
    uint256 public constant GRACE_PERIOD = 90 days;

    IEthRegistrarRegistry public immutable ens;
    /// @notice namehash("eth"): the node this registrar must own in the registry.
    bytes32 public immutable baseNode;

    mapping(uint256 => uint256) private expiries;
    mapping(address => bool) public controllers;

    event ControllerAdded(address indexed controller);
    event NameRegistered(uint256 indexed id, string label, address indexed owner, uint256 expires);
    event NameRenewed(uint256 indexed id, uint256 expires);

    error NotController(address caller);
    error NameNotAvailable(uint256 id);
    error NameExpired(uint256 id);
    error InvalidLabel(string label);
    error NotRegistrant(address caller, uint256 id);

    constructor(IEthRegistrarRegistry _ens, bytes32 _baseNode) Ownable(msg.sender) {
        ens = _ens;
        baseNode = _baseNode;
    }

    modifier onlyController() {
        if (!controllers[msg.sender]) revert NotController(msg.sender);
        _;
    }

    function addController(address controller) external onlyOwner {
        controllers[controller] = true;
        emit ControllerAdded(controller);
    }

    /// @notice Unix seconds at which the name expires; 0 when it was never registered.
    function nameExpires(uint256 id) external view returns (uint256) {
        return expiries[id];
    }

    function available(uint256 id) public view returns (bool) {
        return expiries[id] + GRACE_PERIOD < block.timestamp;
    }

    /// @notice Registers `label`.eth to `owner` for `duration` seconds; the owner also becomes its controller.
    function register(string calldata label, address owner, uint256 duration) external onlyController returns (uint256) {
        if (bytes(label).length == 0 || bytes(label).length > 255) revert InvalidLabel(label);
        uint256 id = uint256(keccak256(bytes(label)));
        if (!available(id)) revert NameNotAvailable(id);
        uint256 expires = block.timestamp + duration;
        expiries[id] = expires;
        if (owner == address(0)) revert InvalidReceiver(owner);
        _move(_holder(id), owner, id);
        ens.setSubnodeOwner(baseNode, bytes32(id), owner);
        emit NameRegistered(id, label, owner, expires);
        return expires;
    }

    function renew(uint256 id, uint256 duration) external onlyController returns (uint256) {
        if (expiries[id] + GRACE_PERIOD < block.timestamp) revert NameExpired(id);
        expiries[id] += duration;
        emit NameRenewed(id, expiries[id]);
        return expiries[id];
    }

    /// @notice The registrant (or an approved operator) sets who controls the name in the registry.
    function reclaim(uint256 id, address owner) external {
        if (!_isAuthorized(_requireOwned(id), msg.sender, id)) revert NotRegistrant(msg.sender, id);
        ens.setSubnodeOwner(baseNode, bytes32(id), owner);
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC165).interfaceId || interfaceId == type(IERC721).interfaceId;
    }

    /// @dev `ownerOf` is the registrant; it reverts once the name has expired, as BaseRegistrar does.
    function _requireOwned(uint256 id) internal view override returns (address owner) {
        owner = _holder(id);
        if (expiries[id] <= block.timestamp || owner == address(0)) revert NameExpired(id);
    }

    function _revertNotAuthorized(address caller, uint256 id) internal pure override {
        revert NotRegistrant(caller, id);
    }
}
