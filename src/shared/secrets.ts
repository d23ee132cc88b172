import { hash, randomBytes } from 'node:crypto';

// The one-shot hash: every API request hashes its key, and it costs half of createHash's chain.
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');
