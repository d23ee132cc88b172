import type { Readable } from 'node:stream';

/** Port: where uploaded files live (adapters in `src/storage`). Keys look like `covers/3f2a….png`. */
export interface Storage {
  /**
   * Stores `body` under `key`, whole or not at all. A stream is read as it
   * comes, never held whole in memory; when it fails (a limit passed, the
   * client gone) or the storage does, nothing of it stays anywhere and `put`
   * rejects (with a StorageError; the caller knows its own stream's failure).
   */
  put(input: { key: string; body: Readable | Buffer; contentType: string }): Promise<void>;
  get(key: string): Promise<{ body: Buffer; contentType: string } | undefined>;
  delete(key: string): Promise<void>;
  /** An absolute URL of the object where the backend serves it itself (S3), else undefined. */
  publicUrl(key: string): string | undefined;
  /** The directory that holds the files on this machine (local storage), so that they can be streamed from it; else undefined. */
  directory(): string | undefined;
  status(): StorageStatus;
}

export interface StorageStatus {
  driver: 'local' | 's3';
  configured: boolean;
  bucket: string | null;
  public_url: string | null;
}

/** The backend failed (the HTTP layer answers 502). Its message never carries credentials. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
}

const KEY = /^[a-zA-Z0-9_.-]+(\/[a-zA-Z0-9_.-]+)*$/;

/** A key that stays inside its folder and the bucket's namespace. */
export function isValidKey(key: string): boolean {
  return KEY.test(key) && !key.split('/').some((part) => part === '..' || part === '.');
}

/** Who stored which upload and its size: what a user's quota counts (adapter in `src/db`). */
export interface UploadsRepository {
  /** The bytes of the user's stored uploads, but `except` (a cover being replaced). */
  used(userId: number, except?: string): Promise<number>;
  /**
   * Records a stored upload if the user's uploads stay within `quotaBytes`
   * with it, checked and written at once (two instances cannot both pass
   * the last free bytes); else records nothing and answers the bytes in use.
   * With `replaces`, that upload is not counted and is forgotten with it.
   */
  record(input: {
    key: string;
    userId: number;
    bytes: number;
    quotaBytes: number;
    now: string;
    replaces?: string;
  }): Promise<{ recorded: true } | { recorded: false; used: number }>;
  /** The recorded uploads whose keys start with `prefix` (a site's folder), newest first. */
  list(prefix: string): Promise<{ key: string; bytes: number; created_at: string }[]>;
  /** Forgets an upload (its file deleted): it no longer counts against its owner's quota. False when none had the key. */
  forget(key: string): Promise<boolean>;
}
