import { StorageError } from '../modules/uploads/uploads.js';

const KEY = /^[a-zA-Z0-9_.-]+(\/[a-zA-Z0-9_.-]+)*$/;

/** Refuses keys that could leave their folder or the bucket's namespace. */
export function assertKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.'))
    throw new StorageError(`Invalid storage key "${key}".`);
  return key;
}
