import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { PNG } from './images.js';

export interface StreamedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** Bytes of the body this client had written when the answer's head arrived. */
  sentAtAnswer: number;
  /** The body's whole length: what an upload read whole would have needed. */
  total: number;
}

export interface StreamedUpload {
  /** The answer; rejects when the upload was aborted by `abort()`. */
  answer: Promise<StreamedAnswer>;
  /** Bytes written so far. */
  sent(): number;
  /** Resolves once at least `bytes` are written (the client stops there until `resume()` when paused). */
  reached(bytes: number): Promise<void>;
  /** Goes on writing after `pauseAt`. */
  resume(): void;
  /** Drops the connection as a client that goes away mid-upload. */
  abort(): void;
}

const ZEROS = Buffer.alloc(64 * 1024);

/**
 * A multipart upload of `size` bytes (a PNG's header, then zeros), generated
 * while it is written, with backpressure: the client holds one 64 KiB buffer,
 * never the file, so that the test process's memory is the server's.
 */
export function streamUpload(
  url: string,
  options: { key: string; size: number; field?: string; head?: Buffer; pauseAt?: number },
): StreamedUpload {
  const boundary = `----pageblocks${Math.random().toString(16).slice(2)}`;
  const field = options.field ?? 'file';
  const preamble = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
  const head = options.head ?? PNG;
  const total = preamble.length + options.size + epilogue.length;
  let written = 0;
  let answered = false;
  let paused = options.pauseAt !== undefined;
  let wake: (() => void) | undefined;
  const waiters: { bytes: number; resolve: () => void }[] = [];
  const progress = (bytes: number) => {
    written += bytes;
    for (const waiter of waiters.filter((w) => written >= w.bytes)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const req = request(url, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${options.key}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(total),
    },
  });

  const answer = new Promise<StreamedAnswer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (response) => {
      answered = true;
      const sentAtAnswer = written;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: response.statusCode!, headers: response.headers, body, sentAtAnswer, total });
        // An answer before the whole body: this client stops sending.
        if (!req.writableFinished) req.destroy();
      });
    });
  });
  answer.catch(() => undefined);

  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (req.destroyed) return reject(new Error('destroyed'));
      const ok = req.write(chunk, (error) => (error ? reject(error) : undefined));
      progress(chunk.length);
      if (ok) resolve();
      else req.once('drain', resolve);
    });

  void (async () => {
    try {
      await write(preamble);
      await write(head);
      let left = options.size - head.length;
      while (left > 0 && !answered && !req.destroyed) {
        if (paused && written >= options.pauseAt!) await new Promise<void>((resolve) => (wake = resolve));
        const chunk = left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left);
        await write(chunk);
        left -= chunk.length;
      }
      if (!answered && !req.destroyed) {
        await write(epilogue);
        req.end();
      }
    } catch {
      // The server answered and closed, or the test aborted: the answer says which.
    }
  })();

  return {
    answer,
    sent: () => written,
    reached: (bytes) =>
      written >= bytes ? Promise.resolve() : new Promise((resolve) => waiters.push({ bytes, resolve })),
    resume: () => {
      paused = false;
      wake?.();
    },
    abort: () => req.destroy(new Error('aborted by the test')),
  };
}

/**
 * The most bytes a client can have written that the server never read: what
 * the kernel buffers on a loopback connection (the receiver's largest receive
 * buffer plus the sender's largest send buffer, as Linux autotunes them), and
 * Node's own stream buffers. An answer that came while the client had written
 * less than `limit + socketSlack()` came before the server read past `limit`.
 * Read from the kernel rather than assumed: on this kind of machine the
 * receive buffer may grow to 32 MB, so a fixed margin fails under load.
 */
export function socketSlack(): number {
  const largest = (file: string, fallback: number) => {
    try {
      return Number(readFileSync(file, 'utf8').trim().split(/\s+/).at(-1));
    } catch {
      return fallback;
    }
  };
  const MB = 1024 * 1024;
  return largest('/proc/sys/net/ipv4/tcp_rmem', 32 * MB) + largest('/proc/sys/net/ipv4/tcp_wmem', 4 * MB) + MB;
}
