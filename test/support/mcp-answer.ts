import { expect } from 'vitest';

/** A tool's answer as the MCP SDK's client or the JSON-RPC body gives it. */
export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: unknown;
  content: { type: string; text?: string; resource?: { uri: string; mimeType?: string; text?: string } }[];
}

/**
 * What a tool answered, as an agent reads it: the JSON of its one text block.
 * The result is sent once (docs/decisions.md, "MCP answers"): never again as
 * `structuredContent`, never in a second block.
 */
export function toolJson(answer: ToolAnswer): Record<string, any> {
  expect(answer.structuredContent, 'the result is sent once, as content').toBeUndefined();
  expect(answer.content.map((c) => c.type)).toEqual(['text']);
  return JSON.parse(answer.content[0]!.text!) as Record<string, any>;
}
