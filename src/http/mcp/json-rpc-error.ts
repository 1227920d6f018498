import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error a request handler throws, sent with this code and message as they are. The SDK's McpError puts
 * "MCP error <code>: " into its message, which the server sends on the wire and the client's McpError prefixes
 * again ("MCP error -32602: MCP error -32602: …").
 * @example throw new JsonRpcError(ErrorCode.InvalidParams, 'Unknown tool no_such_tool')
 */
export class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  constructor(
    readonly code: ErrorCode | number,
    message: string,
    /** Sent as the error's `data` when present (e.g. the envelope of a refusal). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}
