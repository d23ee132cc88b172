/** Tiny real images: their first bytes are what type detection reads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(64),
  Buffer.from([0xff, 0xd9]),
]);
export const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(32),
]);

/** A PNG header followed by padding: a valid type, of the given size. */
export const bigPng = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(bytes - PNG.length)]);

export function form(field: string, bytes: Buffer, filename: string, type = 'image/png'): FormData {
  const body = new FormData();
  body.append(field, new Blob([bytes], { type }), filename);
  return body;
}
