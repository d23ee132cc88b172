/**
 * How the actor came: an API key (its prefix), a session of the web app, or
 * the MCP server (through the key whose prefix is given). A page's history
 * names it beside the user.
 */
export type Via = { kind: 'key'; keyPrefix: string } | { kind: 'session' } | { kind: 'mcp'; keyPrefix: string };

/** Who is acting: the owner of the API key or of the session. */
export interface Actor {
  userId: number;
  isAdmin: boolean;
  /** Absent where no request brought the actor (scripts, tests of a service alone). */
  via?: Via;
}
