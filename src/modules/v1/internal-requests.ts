/**
 * Requests the service makes to its own Data API on a caller's behalf (the MCP tools): the gate lets
 * them through uncounted, because the caller's own request that led to them was already
 * authenticated and counted. Only code in this process can put a Request in this set; no header or
 * anything else a client sends can.
 */
export const internalRequests = new WeakSet<Request>()
