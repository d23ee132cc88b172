/** Port: where uploaded files live (adapters in `src/storage`). Keys look like `covers/3f2a….png`. */
export interface Storage {
  put(input: { key: string; body: Buffer; contentType: string }): Promise<void>;
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
