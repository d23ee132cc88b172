export type ImageMime = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

const ALLOWED: Record<string, { mime: ImageMime; ext: 'jpg' | 'png' | 'gif' | 'webp' }> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg' },
  'image/png': { mime: 'image/png', ext: 'png' },
  'image/gif': { mime: 'image/gif', ext: 'gif' },
  'image/webp': { mime: 'image/webp', ext: 'webp' },
};

/** The image type by the file's own bytes: a name or a declared type proves nothing. */
export async function detectImageType(
  bytes: Buffer,
): Promise<{ mime: ImageMime; ext: 'jpg' | 'png' | 'gif' | 'webp' } | undefined> {
  // Loaded at the first upload, not at every start.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(bytes);
  return found ? ALLOWED[found.mime] : undefined;
}
