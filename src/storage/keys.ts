import { isValidKey, StorageError } from '../modules/uploads/uploads.js';

/** Refuses keys that could leave their folder or the bucket's namespace. */
export function assertKey(key: string): string {
  if (!isValidKey(key)) throw new StorageError(`Invalid storage key "${key}".`);
  return key;
}
