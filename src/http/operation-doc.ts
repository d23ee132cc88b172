export interface OperationDoc {
  /** camelCase, unique within a document, never changed once published. */
  id: string;
  /** When to use it: the first sentence of the operation's description. */
  use: string;
  /**
   * Example answers by status, where the operation's differ from its shape's
   * (an error's place); a success and a body show their schema's example.
   */
  responses?: Record<number, unknown>;
}
