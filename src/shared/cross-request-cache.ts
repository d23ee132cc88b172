import { LRUCache } from 'lru-cache';

export interface CrossRequestCacheOptions<K, V> {
  /** Most entries kept; with `weigh`, the most total weight (bytes) kept instead. */
  budget: number;
  /** An entry's weight in bytes; without it every entry weighs 1. */
  weigh?: (value: V, key: K) => number;
  /** Told of every entry that leaves: evicted, deleted, replaced or cleared. */
  onRemove?: (value: V, key: K) => void;
}

/** Any value but null and undefined: `get` answers undefined for what is not kept. */
export type Keepable = NonNullable<unknown>;

/**
 * A bounded map kept for the life of the process: every request meets what
 * the ones before it left here. So its key must name everything that decides
 * the value (a revision id, a SQL text, a version), and a value that belongs
 * to one user is checked against the asking user on every read, never
 * trusted by key alone. Least recently used out, by entry count or by weight.
 * A value that weighs more than the budget is not kept; a budget of 0 keeps
 * nothing.
 */
export class CrossRequestCache<K extends Keepable, V extends Keepable> {
  readonly #lru: LRUCache<K, V> | undefined;
  constructor(options: CrossRequestCacheOptions<K, V>) {
    const { budget, weigh, onRemove } = options;
    if (budget <= 0) return;
    this.#lru = new LRUCache<K, V>({
      ...(weigh ? { maxSize: budget, sizeCalculation: (v, k) => Math.max(1, weigh(v, k)) } : { max: budget }),
      ...(onRemove ? { dispose: (v: V, k: K) => onRemove(v, k) } : {}),
    });
  }

  get(key: K): V | undefined {
    return this.#lru?.get(key);
  }

  set(key: K, value: V): void {
    this.#lru?.set(key, value);
  }

  delete(key: K): void {
    this.#lru?.delete(key);
  }

  clear(): void {
    this.#lru?.clear();
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** The total weight kept (the entry count without `weigh`). */
  get weight(): number {
    return this.#lru ? (this.#lru.maxSize ? this.#lru.calculatedSize : this.#lru.size) : 0;
  }
}
