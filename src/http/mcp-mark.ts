import { randomBytes } from 'node:crypto';

/**
 * The header the MCP route puts on the requests it makes in-process for a tool
 * call, so that the key contour knows the call came through MCP (a page's
 * history names it). Its value is drawn once per process and never leaves it:
 * a client sending the header with any other value is a plain key call.
 */
export const MCP_MARK_HEADER = 'x-pageblocks-mcp';
export const MCP_MARK = randomBytes(24).toString('hex');
