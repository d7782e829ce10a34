// --redact takes out what an image carries beside its pixels (a photo's place and camera, a
// screenshot's text chunks), walking each format's own structure; the pixels stay byte for byte.

import { describe, expect, it } from 'vitest';
import { createSharer } from '../src/share/share.js';
import { withoutImageMetadata } from '../src/share/image-metadata.js';
import type { Block, Entry, SessionFile } from '../src/types.js';
import { prompt, sessionFile } from './support/session-builders.js';

const SECRET = 'GPS 52.5200N 13.4050E /home/planted-user/Pictures';

function pngChunk(type: string, data: Buffer | string): Buffer {
  const body = Buffer.from(data);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  // The CRC is not checked by the walk; four bytes stand in for it.
  return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.from([1, 2, 3, 4])]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IHDR = pngChunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]));
const IDAT = pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x60, 0x60, 0x60, 0, 0, 0, 4, 0, 1]));
const IEND = pngChunk('IEND', '');
const png = Buffer.concat([PNG_SIGNATURE, IHDR, pngChunk('tEXt', `Comment\0${SECRET}`), pngChunk('eXIf', SECRET), IDAT, pngChunk('iTXt', `XML:com.adobe.xmp\0\0\0\0\0${SECRET}`), IEND]);

function jpegSegment(marker: number, data: Buffer | string): Buffer {
  const body = Buffer.from(data);
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

const JFIF = jpegSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'));
const DQT = jpegSegment(0xdb, Buffer.alloc(65, 1));
const SCAN = Buffer.concat([jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])), Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56]), Buffer.from([0xff, 0xd9])]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), JFIF, jpegSegment(0xe1, `Exif\0\0${SECRET}`), jpegSegment(0xed, `Photoshop 3.0\0${SECRET}`), jpegSegment(0xfe, SECRET), DQT, SCAN, Buffer.from(`trailing ${SECRET}`)]);

const gifImage = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([1, 0, 1, 0, 0, 0, 0]),
  Buffer.from([0x21, 0xf9, 4, 0, 0, 0, 0, 0]),
  Buffer.concat([Buffer.from([0x21, 0xfe, SECRET.length]), Buffer.from(SECRET), Buffer.from([0])]),
  Buffer.concat([Buffer.from([0x21, 0xff, 11]), Buffer.from('XMP DataXMP', 'latin1'), Buffer.from([SECRET.length]), Buffer.from(SECRET), Buffer.from([0])]),
  Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0]),
  Buffer.from([0x3b]),
]);

function riffChunk(type: string, data: Buffer | string): Buffer {
  const body = Buffer.from(data);
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.from([0]) : Buffer.alloc(0)]);
}

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + body.length, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}

const VP8X = riffChunk('VP8X', Buffer.from([0x08 | 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
const VP8L = riffChunk('VP8L', Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0]));
const webp = riff([VP8X, VP8L, riffChunk('EXIF', SECRET), riffChunk('XMP ', SECRET)]);

describe('taking metadata out of an image', () => {
  it.each([
    ['image/png', png, Buffer.concat([PNG_SIGNATURE, IHDR, IDAT, IEND])],
    ['image/jpeg', jpeg, Buffer.concat([Buffer.from([0xff, 0xd8]), JFIF, DQT, SCAN])],
    ['image/gif', gifImage, Buffer.concat([gifImage.subarray(0, 13), gifImage.subarray(13, 21), gifImage.subarray(gifImage.length - 16)])],
  ])('keeps only what draws a %s', (mimeType, bytes, expected) => {
    const result = withoutImageMetadata(mimeType, bytes);
    expect(result?.stripped).toBe(true);
    expect(result?.bytes.equals(expected)).toBe(true);
    expect(result?.bytes.includes(Buffer.from('52.5200N'))).toBe(false);
  });

  it('takes EXIF and XMP chunks out of a WebP, and their flags out of its header', () => {
    const result = withoutImageMetadata('image/webp', webp);
    expect(result?.bytes.equals(riff([riffChunk('VP8X', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])), VP8L]))).toBe(true);
  });

  // Regression (an outside review of safety): a chunk of a type it did not know (`ZZZZ`) stayed,
  // where PNG, GIF and JPEG keep only what draws them.
  it('takes any chunk out of a WebP but what draws it', () => {
    const result = withoutImageMetadata('image/webp', riff([VP8L, riffChunk('ZZZZ', SECRET)]));
    expect(result).toEqual({ bytes: riff([VP8L]), stripped: true });
  });

  // Regression (a hostile look at the fix above): an animation frame (ANMF) holds chunks of its
  // own, and one of a type it did not know stayed in it.
  it('takes any chunk out of a WebP animation frame but what draws it', () => {
    const placing = Buffer.alloc(16, 1);
    const frame = (...chunks: Buffer[]) => riffChunk('ANMF', Buffer.concat([placing, ...chunks]));
    const result = withoutImageMetadata('image/webp', riff([VP8X, frame(VP8L, riffChunk('ZZZZ', SECRET))]));
    expect(result?.stripped).toBe(true);
    expect(result?.bytes.equals(riff([riffChunk('VP8X', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])), frame(VP8L)]))).toBe(true);
    expect(result?.bytes.includes(SECRET)).toBe(false);
  });

  it('leaves an image with nothing to take out as it is', () => {
    const plain = Buffer.concat([PNG_SIGNATURE, IHDR, IDAT, IEND]);
    expect(withoutImageMetadata('image/png', plain)).toEqual({ bytes: plain, stripped: false });
  });

  it('shows no image whose bytes are not the format they claim, or whose format it cannot walk', () => {
    expect(withoutImageMetadata('image/png', jpeg)).toBeNull();
    expect(withoutImageMetadata('image/png', png.subarray(0, png.length - 20))).toBeNull();
    expect(withoutImageMetadata('image/jpeg', Buffer.from('not a jpeg'))).toBeNull();
    expect(withoutImageMetadata('image/avif', Buffer.from('....ftypavif'))).toBeNull();
  });
});

describe('--redact on images', () => {
  const withImage = (block: Block) => sessionFile({ path: '/s.jsonl' }, [{ ...prompt('p1', '2026-10-01T10:00:00Z', ''), content: [block] } as Entry]);
  const imageOf = (file: SessionFile) => (file.entries[0] as Extract<Entry, { kind: 'prompt' }>).content[0] as Extract<Block, { type: 'image' }>;

  // Regression: a pasted photo's Exif reached every page of a shared report byte for byte.
  it('takes an image’s metadata out and counts it; without --redact the image is as it was', () => {
    const block: Block = { type: 'image', mimeType: 'image/jpeg', data: jpeg.toString('base64') };
    const sharer = createSharer({ redact: true, omit: new Set(), home: '/home/planted-user' });
    const shared = imageOf(sharer.file(withImage(block)));
    expect(Buffer.from(shared.data, 'base64').includes(Buffer.from('52.5200N'))).toBe(false);
    expect(shared.data.length).toBeGreaterThan(0);
    expect(sharer.redactions.get('image-metadata')).toBe(1);
    const plain = createSharer({ redact: false, omit: new Set(['thinking']), home: null });
    expect(imageOf(plain.file(withImage(block))).data).toBe(block.data);
  });
});
