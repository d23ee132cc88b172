/**
 * Serialized answers of `GET /pages/{id}` (with and without blocks), kept with
 * the owner they belong to and the database's write generation they were read
 * at. An entry is only served while the generation has not moved: every write
 * of this process (each statement that is not a select, COMMIT and ROLLBACK
 * included) and every commit of another process moves it, so a kept answer is
 * never stale. Bounded by characters, least recently used out.
 */
export class PageReadCache {
  readonly #entries = new Map<string, { generation: string; ownerId: number; body: string }>();
  #characters = 0;

  constructor(
    /** The database's write generation; undefined where it has none (nothing is kept then). */
    readonly generation: (() => string) | undefined,
    private readonly budget = 8 * 1024 * 1024,
  ) {}

  /** The kept body, when it is current and the page is the user's. */
  get(pageId: number, withBlocks: boolean, userId: number): string | undefined {
    if (!this.generation) return undefined;
    const key = `${pageId}:${withBlocks ? 1 : 0}`;
    const entry = this.#entries.get(key);
    if (!entry || entry.ownerId !== userId) return undefined;
    if (entry.generation !== this.generation()) {
      this.#drop(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.body;
  }

  /**
   * Keeps a body read between two readings of the generation, `before` and
   * now: if anything was written meanwhile, what was read may mix states, and
   * it is not kept.
   */
  set(pageId: number, withBlocks: boolean, ownerId: number, body: string, before: string | undefined): void {
    if (!this.generation || before === undefined || before !== this.generation()) return;
    if (body.length > this.budget) return;
    const key = `${pageId}:${withBlocks ? 1 : 0}`;
    this.#drop(key);
    this.#entries.set(key, { generation: before, ownerId, body });
    this.#characters += body.length;
    while (this.#characters > this.budget) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#drop(oldest.value);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#characters -= entry.body.length;
  }
}
