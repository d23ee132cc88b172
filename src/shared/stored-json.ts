/**
 * A JSON value together with its text, each made from the other when first
 * asked for and kept. Read from the database, the text is what is stored
 * (`StoredJson.fromText`): rendering keys its cache by it and sends it to a
 * thread as it is, a page write copies it, and it is parsed only where the
 * value itself is looked at. Made from a value (`StoredJson.of`: a draft's
 * values, a revision's parsed fields), the text is `JSON.stringify`'s.
 *
 * The value is shared by everyone who holds this object: never mutate it, or
 * the text would no longer say what it holds.
 */
export class StoredJson<T> {
  #text: string | undefined;
  #value: T | undefined;
  #parsed: boolean;

  private constructor(text: string | undefined, value: T | undefined, parsed: boolean) {
    this.#text = text;
    this.#value = value;
    this.#parsed = parsed;
  }

  /** The text as stored; parsed at the first read of `value`. */
  static fromText<T>(text: string): StoredJson<T> {
    return new StoredJson<T>(text, undefined, false);
  }

  /** A value; its text written at the first read of `text`. */
  static of<T>(value: T): StoredJson<T> {
    return new StoredJson<T>(undefined, value, true);
  }

  get text(): string {
    return (this.#text ??= JSON.stringify(this.#value));
  }

  get value(): T {
    if (!this.#parsed) {
      this.#value = JSON.parse(this.#text!) as T;
      this.#parsed = true;
    }
    return this.#value as T;
  }
}
