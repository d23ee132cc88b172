import { createHash, randomBytes } from 'node:crypto';

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');
