import type { Middleware } from 'openapi-fetch';

/**
 * A lost session (signed out elsewhere, expired, the service restarted with
 * new secrets) costs nothing typed: a request the service answers 401 is held,
 * the app asks the person to sign in again (the session-lost dialog), and once
 * they have, the same request is sent again and its answer is the one the
 * screen gets, so the save that met the 401 is saved. Cancelled, the screen
 * gets the 401 as it came. The sign-in calls themselves (/api/auth/*) are not
 * held: their 401 is their answer.
 *
 * It is the client's middleware, registered last: it sees each request as sent
 * (If-Match included), and its answer goes through the other middlewares as
 * the first one would have.
 */
export class SessionGuard {
  // A copy of each request in flight, by the client's request id: a body is read once, by the first fetch.
  readonly #copies = new Map<string, Request>();
  #waiting: Promise<boolean> | null = null;
  #settle: ((signedIn: boolean) => void) | null = null;
  readonly #listeners = new Set<(lost: boolean) => void>();

  constructor(private readonly fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {}

  /** Whether the session is lost and the dialog should be open; told on each change. */
  onChange(listener: (lost: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  get lost(): boolean {
    return this.#waiting !== null;
  }

  /** Signed in again: every held request goes again. */
  signedIn(): void {
    this.#end(true);
  }

  /** The person would rather not: every held request gets its 401. */
  cancel(): void {
    this.#end(false);
  }

  #end(signedIn: boolean) {
    const settle = this.#settle;
    this.#waiting = null;
    this.#settle = null;
    settle?.(signedIn);
    for (const listener of this.#listeners) listener(false);
  }

  #ask(): Promise<boolean> {
    if (!this.#waiting) {
      this.#waiting = new Promise((resolve) => (this.#settle = resolve));
      for (const listener of this.#listeners) listener(true);
    }
    return this.#waiting;
  }

  readonly middleware: Middleware = {
    onRequest: ({ request, schemaPath, id }) => {
      if (!schemaPath.startsWith('/api/auth/')) this.#copies.set(id, request.clone());
      return undefined;
    },
    onResponse: async ({ response, id }) => {
      const copy = this.#copies.get(id);
      this.#copies.delete(id);
      if (!copy || response.status !== 401) return undefined;
      let answer = response;
      let request = copy;
      // Asked again while the answer is still 401 (the wrong account's session would answer otherwise).
      while (answer.status === 401 && (await this.#ask())) {
        const next = request.clone();
        answer = await this.fetchImpl(request);
        request = next;
      }
      return answer;
    },
    onError: ({ id }) => {
      this.#copies.delete(id);
    },
  };
}
