// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev The registry reads the resolver walk needs (ENSRegistry of @ensdomains/ens and every later registry).
interface IURRegistry {
    function resolver(bytes32 node) external view returns (address);
}

/// @dev ENSIP-10 wildcard resolution: the resolver answers for a whole subtree, given the DNS-encoded name.
interface IURExtendedResolver {
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory);
}

interface IURNameResolver {
    function name(bytes32 node) external view returns (string memory);
}

/// @dev The batch gateway protocol (ENSIP-21): one CCIP-Read round answers several lookups.
interface IURBatchGateway {
    struct Request {
        address sender;
        string[] urls;
        bytes data;
    }

    function query(Request[] memory requests) external view returns (bool[] memory failures, bytes[] memory responses);
}

/**
 * Resolves an ENS name (or an address's primary name) in one `eth_call`, with the interface of ENS's Universal
 * Resolver that viem's ENS actions call (`resolveWithGateways`, `reverseWithGateways`, `findResolver`) and ethers v6
 * calls (`requireResolver`, `reverse`).
 *
 * - Resolver lookup walks from the name up to the root; a resolver found on a parent answers only when it
 *   supports ENSIP-10 `resolve(bytes,bytes)` (wildcard).
 * - A resolver that reverts with ERC-3668 `OffchainLookup` is re-wrapped: this contract reverts with its own
 *   `OffchainLookup` (sender = this contract, the caller's batch gateways, `query(Request[])` as call data) and
 *   finishes in `resolveCallback`, which hands each gateway answer to the resolver's own callback.
 * - `data` may be `multicall(bytes[])`: each call is answered separately (offchain ones in one gateway round) and
 *   the result is `abi.encode(bytes[])`, an empty entry for a call that failed.
 * - Reverse lookups (ENSIP-19) may go offchain at both steps, the reverse record (an L2 primary name served through
 *   CCIP-Read under `<coin type>.reverse`) and the forward check: each step re-aims the OffchainLookup at
 *   `reverseNameCallback` / `reverseAddressCallback`.
 */
contract UniversalResolver {
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error DNSDecodingFailed(bytes dns);
    error DNSEncodingFailed(string ens);
    error EmptyAddress();
    error HttpError(uint16 status, string message);
    error InvalidBatchGatewayResponse();
    error ResolverError(bytes errorData);
    error ResolverNotContract(bytes name, address resolver);
    error ResolverNotFound(bytes name);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedResolverProfile(bytes4 selector);

    bytes4 private constant EXTENDED_RESOLVER_INTERFACE = 0x9061b923;
    bytes4 private constant MULTICALL_SELECTOR = bytes4(keccak256("multicall(bytes[])"));
    uint256 private constant COIN_TYPE_ETH = 60;
    // ERC-165 probes get a bounded amount of gas, as EIP-165 recommends.
    uint256 private constant SUPPORTS_INTERFACE_GAS = 30_000;

    IURRegistry public immutable registry;
    string[] private defaultGateways;

    /// @notice A name's resolver as ENS's IUniversalResolverExtended describes it (ethers v6 reads this tuple).
    struct ResolverInfo {
        bytes name; // the DNS-encoded name asked about
        uint256 offset; // where in `name` the label holding the resolver starts
        bytes32 node; // namehash(name)
        address resolver;
        bool extended; // the resolver answers ENSIP-10 resolve(bytes,bytes)
    }

    /// @dev Everything one resolution needs across CCIP-Read rounds; travels in `extraData`.
    struct Batch {
        bytes name;
        address resolver;
        bool extended;
        bool multi;
        bytes[] calls;
        bytes[] results;
        bool[] failed;
        bool[] pending;
        bytes4[] callbacks;
        bytes[] extraDatas;
        string[][] urls;
        bytes[] requests;
        string[] gateways;
    }

    /// @dev A reverse lookup across CCIP-Read rounds; travels in `extraData`.
    struct ReverseLookup {
        bytes lookupAddress;
        uint256 coinType;
        string[] gateways;
        string primary; // the reverse record, once read
        address reverseResolver;
        bytes inner; // extraData of the resolution waiting on the gateway
    }

    constructor(IURRegistry _registry, string[] memory _gateways) {
        registry = _registry;
        defaultGateways = _gateways;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7; // ERC-165
    }

    /// @notice Resolves `data` for the DNS-encoded `name` with the batch gateways set at deployment.
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory, address) {
        return resolveWithGateways(name, data, defaultGateways);
    }

    /// @notice Resolves `data` (e.g. `addr(bytes32)`, `text(bytes32,string)`, `multicall(bytes[])`) for `name`.
    /// @return result the resolver's ABI-encoded answer; resolver the resolver that gave it.
    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] memory gateways)
        public
        view
        returns (bytes memory, address)
    {
        ResolverInfo memory info = requireResolver(name);
        address resolver = info.resolver;
        bool extended = info.extended;

        Batch memory batch = _newBatch(name, resolver, extended, data, gateways);
        for (uint256 i = 0; i < batch.calls.length; i++) {
            bytes memory request = extended
                ? abi.encodeCall(IURExtendedResolver.resolve, (name, batch.calls[i]))
                : batch.calls[i];
            (bool ok, bytes memory answer) = resolver.staticcall(request);
            _record(batch, i, ok, answer);
        }
        return _finish(batch);
    }

    /// @notice Second half of a resolution that went offchain: `response` is the batch gateway's `query` answer.
    function resolveCallback(bytes calldata response, bytes calldata extraData) external view returns (bytes memory, address) {
        Batch memory batch = abi.decode(extraData, (Batch));
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != responses.length) revert InvalidBatchGatewayResponse();
        uint256 answered = 0;
        for (uint256 i = 0; i < batch.calls.length; i++) {
            if (!batch.pending[i]) continue;
            if (answered >= failures.length) revert InvalidBatchGatewayResponse();
            batch.pending[i] = false;
            if (failures[answered]) {
                batch.failed[i] = true;
                batch.results[i] = responses[answered];
            } else {
                (bool ok, bytes memory answer) = batch.resolver.staticcall(
                    abi.encodeWithSelector(batch.callbacks[i], responses[answered], batch.extraDatas[i])
                );
                _record(batch, i, ok, answer);
            }
            answered++;
        }
        if (answered != failures.length) revert InvalidBatchGatewayResponse();
        return _finish(batch);
    }

    /// @notice The primary name of `lookupAddress` for `coinType` (ENSIP-19), checked against its forward address.
    /// @return primary the name (empty when none is set); resolver the forward resolver; reverseResolver the reverse one.
    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] memory gateways)
        external
        view
        returns (string memory, address, address)
    {
        return _reverse(lookupAddress, coinType, gateways);
    }

    /// @notice reverseWithGateways with the batch gateways set at deployment (what ethers v6 `lookupAddress` calls).
    function reverse(bytes calldata lookupAddress, uint256 coinType) external view returns (string memory, address, address) {
        return _reverse(lookupAddress, coinType, defaultGateways);
    }

    /// @notice The resolver responsible for `name`, or a revert: ResolverNotFound when there is none (or only a
    /// parent's that is not ENSIP-10 wildcard), ResolverNotContract when the registry names an address without code.
    function requireResolver(bytes memory name) public view returns (ResolverInfo memory info) {
        (info.resolver, info.node, info.offset) = _findResolver(name, 0);
        if (info.resolver == address(0)) revert ResolverNotFound(name);
        if (info.resolver.code.length == 0) revert ResolverNotContract(name, info.resolver);
        info.extended = _supportsInterface(info.resolver, EXTENDED_RESOLVER_INTERFACE);
        if (!info.extended && info.offset != 0) revert ResolverNotFound(name);
        info.name = name;
    }

    /// @notice Second step of a reverse lookup whose reverse resolver went offchain (an L2 primary name read through
    /// CCIP-Read, as ENSIP-19 resolvers of `<coin type>.reverse` do): `response` is the batch gateway's answer.
    function reverseNameCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (string memory, address, address)
    {
        ReverseLookup memory lookup = abi.decode(extraData, (ReverseLookup));
        (bytes memory nameAnswer, address reverseResolver) =
            _continueOffchain(response, lookup, this.reverseNameCallback.selector);
        return _afterName(lookup, nameAnswer, reverseResolver);
    }

    /// @notice Last step of a reverse lookup whose forward check went offchain (e.g. a name under base.eth on L1).
    function reverseAddressCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (string memory, address, address)
    {
        ReverseLookup memory lookup = abi.decode(extraData, (ReverseLookup));
        (bytes memory addrAnswer, address resolver) =
            _continueOffchain(response, lookup, this.reverseAddressCallback.selector);
        return _afterAddress(lookup, addrAnswer, resolver);
    }

    function _reverse(bytes memory lookupAddress, uint256 coinType, string[] memory gateways)
        internal
        view
        returns (string memory, address, address)
    {
        if (lookupAddress.length == 0) revert EmptyAddress();
        ReverseLookup memory lookup;
        lookup.lookupAddress = lookupAddress;
        lookup.coinType = coinType;
        lookup.gateways = gateways;
        bytes memory reverseName = _reverseName(lookupAddress, coinType);
        (bytes memory nameAnswer, address reverseResolver) = _resolveStep(
            reverseName,
            abi.encodeCall(IURNameResolver.name, (_namehash(reverseName, 0))),
            lookup,
            this.reverseNameCallback.selector
        );
        return _afterName(lookup, nameAnswer, reverseResolver);
    }

    /// @dev The reverse record is known: forward-resolve the name for the same coin type.
    function _afterName(ReverseLookup memory lookup, bytes memory nameAnswer, address reverseResolver)
        internal
        view
        returns (string memory, address, address)
    {
        lookup.primary = abi.decode(nameAnswer, (string));
        lookup.reverseResolver = reverseResolver;
        if (bytes(lookup.primary).length == 0) return (lookup.primary, address(0), reverseResolver);
        bytes memory dnsName = _dnsEncode(lookup.primary);
        bytes32 node = _namehash(dnsName, 0);
        bytes memory addrCall = lookup.coinType == COIN_TYPE_ETH
            ? abi.encodeWithSignature("addr(bytes32)", node)
            : abi.encodeWithSignature("addr(bytes32,uint256)", node, lookup.coinType);
        (bytes memory addrAnswer, address resolver) =
            _resolveStep(dnsName, addrCall, lookup, this.reverseAddressCallback.selector);
        return _afterAddress(lookup, addrAnswer, resolver);
    }

    /// @dev The forward address is known: the primary name holds only when it is the address asked about.
    function _afterAddress(ReverseLookup memory lookup, bytes memory addrAnswer, address resolver)
        internal
        pure
        returns (string memory, address, address)
    {
        bytes memory primaryAddress = lookup.coinType == COIN_TYPE_ETH
            ? abi.encodePacked(abi.decode(addrAnswer, (address)))
            : abi.decode(addrAnswer, (bytes));
        if (keccak256(primaryAddress) != keccak256(lookup.lookupAddress)) {
            revert ReverseAddressMismatch(lookup.primary, primaryAddress);
        }
        return (lookup.primary, resolver, lookup.reverseResolver);
    }

    /// @dev One resolution of a reverse lookup. When it goes offchain, the lookup reverts with this contract's own
    /// OffchainLookup, and `callback` takes the gateway's answer with the lookup's state (as ENS's Universal Resolver
    /// does in reverse).
    function _resolveStep(bytes memory name, bytes memory data, ReverseLookup memory lookup, bytes4 callback)
        internal
        view
        returns (bytes memory, address)
    {
        try this.resolveWithGateways(name, data, lookup.gateways) returns (bytes memory answer, address resolver) {
            return (answer, resolver);
        } catch (bytes memory errorData) {
            _rethrow(errorData, lookup, callback);
        }
    }

    /// @dev Hands a gateway's answer to the pending resolution; a further offchain round comes back to `callback`.
    function _continueOffchain(bytes calldata response, ReverseLookup memory lookup, bytes4 callback)
        internal
        view
        returns (bytes memory, address)
    {
        try this.resolveCallback(response, lookup.inner) returns (bytes memory answer, address resolver) {
            return (answer, resolver);
        } catch (bytes memory errorData) {
            _rethrow(errorData, lookup, callback);
        }
    }

    /// @dev An OffchainLookup of this contract's resolution, re-aimed at `callback` with the lookup's state; any
    /// other error as it was.
    function _rethrow(bytes memory errorData, ReverseLookup memory lookup, bytes4 callback) internal view {
        if (errorData.length >= 4 && bytes4(errorData) == OffchainLookup.selector) {
            bytes memory args = new bytes(errorData.length - 4);
            for (uint256 j = 0; j < args.length; j++) args[j] = errorData[j + 4];
            (address sender, string[] memory urls, bytes memory callData,, bytes memory inner) =
                abi.decode(args, (address, string[], bytes, bytes4, bytes));
            if (sender == address(this)) {
                lookup.inner = inner;
                revert OffchainLookup(address(this), urls, callData, callback, abi.encode(lookup));
            }
        }
        assembly {
            revert(add(errorData, 32), mload(errorData))
        }
    }

    /// @notice The resolver responsible for `name`: the nearest one set on the name or a parent.
    /// @return resolver zero when none; node the namehash of `name`; offset where in `name` the resolver was found.
    function findResolver(bytes calldata name) public view returns (address, bytes32, uint256) {
        return _findResolver(name, 0);
    }

    function _findResolver(bytes memory name, uint256 offset) internal view returns (address, bytes32, uint256) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 labelLength = uint8(name[offset]);
        if (labelLength == 0) {
            if (offset + 1 != name.length) revert DNSDecodingFailed(name);
            return (registry.resolver(bytes32(0)), bytes32(0), offset);
        }
        uint256 next = offset + 1 + labelLength;
        if (next >= name.length) revert DNSDecodingFailed(name);
        (address parentResolver, bytes32 parentNode, uint256 parentOffset) = _findResolver(name, next);
        bytes32 node = keccak256(abi.encodePacked(parentNode, _labelhash(name, offset + 1, labelLength)));
        address own = registry.resolver(node);
        if (own != address(0)) return (own, node, offset);
        return (parentResolver, node, parentOffset);
    }

    function _newBatch(bytes memory name, address resolver, bool extended, bytes memory data, string[] memory gateways)
        internal
        pure
        returns (Batch memory batch)
    {
        batch.name = name;
        batch.resolver = resolver;
        batch.extended = extended;
        batch.gateways = gateways;
        batch.multi = data.length >= 4 && bytes4(data) == MULTICALL_SELECTOR;
        if (batch.multi) {
            bytes memory args = new bytes(data.length - 4);
            for (uint256 i = 0; i < args.length; i++) args[i] = data[i + 4];
            batch.calls = abi.decode(args, (bytes[]));
        } else {
            batch.calls = new bytes[](1);
            batch.calls[0] = data;
        }
        uint256 n = batch.calls.length;
        batch.results = new bytes[](n);
        batch.failed = new bool[](n);
        batch.pending = new bool[](n);
        batch.callbacks = new bytes4[](n);
        batch.extraDatas = new bytes[](n);
        batch.urls = new string[][](n);
        batch.requests = new bytes[](n);
    }

    /// @dev Files one resolver answer: a result, an error, or an offchain lookup to run through the gateways.
    function _record(Batch memory batch, uint256 i, bool ok, bytes memory answer) internal pure {
        if (ok) {
            // An extended resolver ABI-encodes its answer as `bytes`; others answer the call itself.
            batch.results[i] = batch.extended ? abi.decode(answer, (bytes)) : answer;
            if (!batch.extended && answer.length == 0) batch.failed[i] = true;
            return;
        }
        if (answer.length >= 4 && bytes4(answer) == OffchainLookup.selector) {
            bytes memory args = new bytes(answer.length - 4);
            for (uint256 j = 0; j < args.length; j++) args[j] = answer[j + 4];
            (address sender, string[] memory urls, bytes memory callData, bytes4 callback, bytes memory extraData) =
                abi.decode(args, (address, string[], bytes, bytes4, bytes));
            // ERC-3668: only the contract that was called may ask for an offchain lookup on its own behalf.
            if (sender == batch.resolver) {
                batch.pending[i] = true;
                batch.urls[i] = urls;
                batch.requests[i] = callData;
                batch.callbacks[i] = callback;
                batch.extraDatas[i] = extraData;
                return;
            }
        }
        batch.failed[i] = true;
        batch.results[i] = answer;
    }

    /// @dev Goes offchain again while any call waits on a gateway; otherwise returns the answer.
    function _finish(Batch memory batch) internal view returns (bytes memory, address) {
        uint256 waiting = 0;
        for (uint256 i = 0; i < batch.calls.length; i++) if (batch.pending[i]) waiting++;
        if (waiting > 0) {
            IURBatchGateway.Request[] memory requests = new IURBatchGateway.Request[](waiting);
            uint256 k = 0;
            for (uint256 i = 0; i < batch.calls.length; i++) {
                if (!batch.pending[i]) continue;
                requests[k++] = IURBatchGateway.Request(batch.resolver, batch.urls[i], batch.requests[i]);
            }
            revert OffchainLookup(
                address(this),
                batch.gateways,
                abi.encodeCall(IURBatchGateway.query, (requests)),
                this.resolveCallback.selector,
                abi.encode(batch)
            );
        }
        if (batch.multi) {
            bytes[] memory answers = new bytes[](batch.calls.length);
            for (uint256 i = 0; i < answers.length; i++) if (!batch.failed[i]) answers[i] = batch.results[i];
            return (abi.encode(answers), batch.resolver);
        }
        if (batch.failed[0]) _revertFailure(batch.results[0], batch.calls[0]);
        return (batch.results[0], batch.resolver);
    }

    function _revertFailure(bytes memory errorData, bytes memory call) internal pure {
        if (errorData.length == 0) revert UnsupportedResolverProfile(bytes4(call));
        // A gateway's HTTP failure keeps its own error, so clients can tell "offline" from "no record".
        if (errorData.length >= 4 && bytes4(errorData) == HttpError.selector) {
            assembly {
                revert(add(errorData, 32), mload(errorData))
            }
        }
        revert ResolverError(errorData);
    }

    function _supportsInterface(address target, bytes4 interfaceId) internal view returns (bool) {
        (bool ok, bytes memory answer) = target.staticcall{gas: SUPPORTS_INTERFACE_GAS}(
            abi.encodeWithSelector(0x01ffc9a7, interfaceId)
        );
        return ok && answer.length >= 32 && abi.decode(answer, (bool));
    }

    function _labelhash(bytes memory name, uint256 start, uint256 length) internal pure returns (bytes32 hash) {
        assembly {
            hash := keccak256(add(add(name, 32), start), length)
        }
    }

    /// @dev ENSIP-1 namehash of the DNS-encoded name starting at `offset`.
    function _namehash(bytes memory name, uint256 offset) internal pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 labelLength = uint8(name[offset]);
        if (labelLength == 0) return bytes32(0);
        uint256 next = offset + 1 + labelLength;
        if (next >= name.length) revert DNSDecodingFailed(name);
        return keccak256(abi.encodePacked(_namehash(name, next), _labelhash(name, offset + 1, labelLength)));
    }

    /// @dev "alice.eth" → 0x05 "alice" 0x03 "eth" 0x00; an empty or over-long label cannot be encoded.
    function _dnsEncode(string memory ens) internal pure returns (bytes memory dns) {
        bytes memory text = bytes(ens);
        dns = new bytes(text.length + 2);
        uint256 labelStart = 0;
        for (uint256 i = 0; i <= text.length; i++) {
            if (i == text.length || text[i] == ".") {
                uint256 labelLength = i - labelStart;
                if (labelLength == 0 || labelLength > 255) revert DNSEncodingFailed(ens);
                dns[labelStart] = bytes1(uint8(labelLength));
                for (uint256 j = labelStart; j < i; j++) dns[j + 1] = text[j];
                labelStart = i + 1;
            }
        }
        dns[text.length + 1] = 0x00;
    }

    /// @dev ENSIP-19: "<hex address>.addr.reverse" for Ethereum, "<hex address>.<hex coin type>.reverse" otherwise.
    function _reverseName(bytes memory lookupAddress, uint256 coinType) internal pure returns (bytes memory) {
        bytes memory coinLabel = coinType == COIN_TYPE_ETH ? bytes("addr") : _hex(abi.encodePacked(coinType), true);
        return abi.encodePacked(
            uint8(lookupAddress.length * 2), _hex(lookupAddress, false), uint8(coinLabel.length), coinLabel, uint8(7), "reverse", uint8(0)
        );
    }

    function _hex(bytes memory data, bool trimLeadingZeros) internal pure returns (bytes memory out) {
        bytes16 digits = "0123456789abcdef";
        out = new bytes(data.length * 2);
        for (uint256 i = 0; i < data.length; i++) {
            out[2 * i] = digits[uint8(data[i]) >> 4];
            out[2 * i + 1] = digits[uint8(data[i]) & 0x0f];
        }
        if (!trimLeadingZeros) return out;
        uint256 skip = 0;
        while (skip + 1 < out.length && out[skip] == "0") skip++;
        bytes memory trimmed = new bytes(out.length - skip);
        for (uint256 i = 0; i < trimmed.length; i++) trimmed[i] = out[i + skip];
        return trimmed;
    }
}
