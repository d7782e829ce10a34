// An image's pixels without the text it carries beside them, for --redact: a photo's Exif (the
// place it was taken, the camera, its owner), XMP, IPTC, comments, and a screenshot's text
// chunks (the software, a file path, a user name). Redaction cannot read inside them, so they go
// whole. Each format is walked by its own structure and only what draws the image is kept; bytes
// that do not walk as the format they claim to be are not shown at all.

/** What came of an image: its bytes as kept, and whether anything was taken out; null for bytes that are not the image they claim to be. */
export type StrippedImage = { bytes: Buffer; stripped: boolean } | null;

export function withoutImageMetadata(mimeType: string, bytes: Buffer): StrippedImage {
  switch (mimeType.toLowerCase()) {
    case 'image/png':
      return png(bytes);
    case 'image/jpeg':
    case 'image/jpg':
      return jpeg(bytes);
    case 'image/gif':
      return gif(bytes);
    case 'image/webp':
      return webp(bytes);
    case 'image/bmp':
      // Pixels and a header of numbers: nothing to take out.
      return bytes.subarray(0, 2).toString('latin1') === 'BM' ? { bytes, stripped: false } : null;
    default:
      // AVIF and anything else: metadata may sit anywhere in its boxes, so it is not shown.
      return null;
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Chunks that draw the image (or its animation) or say how its colours are meant; every other chunk (tEXt, zTXt, iTXt, eXIf, tIME, a vendor's) goes. */
const PNG_KEPT = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'bKGD', 'pHYs', 'acTL', 'fcTL', 'fdAT', 'cICP']);

function png(bytes: Buffer): StrippedImage {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const kept: Buffer[] = [PNG_SIGNATURE];
  let stripped = false;
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) return null;
    const length = bytes.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > bytes.length) return null;
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (PNG_KEPT.has(type)) kept.push(bytes.subarray(at, end));
    else stripped = true;
    at = end;
    if (type === 'IEND') {
      // Bytes after the end are no part of the image.
      const trimmed = stripped || end < bytes.length;
      return { bytes: trimmed ? Buffer.concat(kept) : bytes, stripped: trimmed };
    }
  }
}

/** APP0 (JFIF), APP2 (ICC profile) and APP14 (Adobe's colour transform) say how to draw; the other APPn (Exif, XMP, IPTC) and comments go. */
const JPEG_KEPT_APP = new Set([0xe0, 0xe2, 0xee]);

function jpeg(bytes: Buffer): StrippedImage {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let stripped = false;
  for (let at = 2; ; ) {
    // Fill bytes (0xFF) may pad between segments.
    while (bytes[at] === 0xff && bytes[at + 1] === 0xff) at++;
    if (at + 2 > bytes.length || bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xd9) {
      kept.push(bytes.subarray(at, at + 2));
      return { bytes: Buffer.concat(kept), stripped: stripped || at + 2 < bytes.length };
    }
    if (at + 4 > bytes.length) return null;
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > bytes.length || end < at + 4) return null;
    if (marker === 0xda) {
      // The scans, to the end: what draws the image. Whatever trails the end of the image goes.
      const last = bytes.lastIndexOf(Buffer.from([0xff, 0xd9]));
      if (last < end) return null;
      kept.push(bytes.subarray(at, last + 2));
      return { bytes: Buffer.concat(kept), stripped: stripped || last + 2 < bytes.length };
    }
    const metadata = marker === 0xfe || (marker >= 0xe0 && marker <= 0xef && !JPEG_KEPT_APP.has(marker));
    if (metadata) stripped = true;
    else kept.push(bytes.subarray(at, end));
    at = end;
  }
}

/** Application extensions that loop an animation; any other (XMP among them) goes. */
const GIF_KEPT_APPS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

function gif(bytes: Buffer): StrippedImage {
  const head = bytes.toString('latin1', 0, 6);
  if ((head !== 'GIF87a' && head !== 'GIF89a') || bytes.length < 13) return null;
  const flags = bytes[10] as number;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const kept: Buffer[] = [bytes.subarray(0, at)];
  let stripped = false;
  /** The end of the data sub-blocks starting at `from`, after their zero-length terminator; -1 when cut short. */
  const subBlocksEnd = (from: number): number => {
    let p = from;
    for (;;) {
      if (p >= bytes.length) return -1;
      const size = bytes[p] as number;
      p += 1 + size;
      if (size === 0) return p;
    }
  };
  for (;;) {
    if (at >= bytes.length) return null;
    const introducer = bytes[at] as number;
    if (introducer === 0x3b) {
      kept.push(bytes.subarray(at, at + 1));
      return { bytes: Buffer.concat(kept), stripped: stripped || at + 1 < bytes.length };
    }
    if (introducer === 0x2c) {
      if (at + 10 > bytes.length) return null;
      const local = bytes[at + 9] as number;
      const data = at + 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0) + 1;
      const end = subBlocksEnd(data);
      if (end === -1) return null;
      kept.push(bytes.subarray(at, end));
      at = end;
      continue;
    }
    if (introducer !== 0x21 || at + 2 > bytes.length) return null;
    const label = bytes[at + 1] as number;
    const end = subBlocksEnd(at + 2);
    if (end === -1) return null;
    const app = label === 0xff && bytes[at + 2] === 11 ? bytes.toString('latin1', at + 3, at + 14) : null;
    // Graphic control (timing, transparency) and a looping animation's extension stay; comments, plain text and other applications go.
    if (label === 0xf9 || (app !== null && GIF_KEPT_APPS.has(app))) kept.push(bytes.subarray(at, end));
    else stripped = true;
    at = end;
  }
}

/** What draws a WebP (its bitstreams, alpha, animation, colour profile); EXIF, XMP and any other chunk go. */
const WEBP_KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
/** VP8X's flags for the chunks dropped: none follows once they are gone. */
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/** What draws an animation frame: its alpha and its bitstream. */
const WEBP_FRAME_KEPT = new Set(['ALPH', 'VP8 ', 'VP8L']);
const ANMF_HEADER = 16;

/** An ANMF chunk's payload with only the sub-chunks that draw the frame, or null when it cannot be walked. */
function frameWithout(payload: Buffer): Buffer | null {
  if (payload.length < ANMF_HEADER) return null;
  const kept: Buffer[] = [payload.subarray(0, ANMF_HEADER)];
  for (let at = ANMF_HEADER; at < payload.length; ) {
    if (at + 8 > payload.length) return null;
    const type = payload.toString('latin1', at, at + 4);
    const size = payload.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (at + 8 + size > payload.length) return null;
    if (WEBP_FRAME_KEPT.has(type)) kept.push(payload.subarray(at, Math.min(next, payload.length)));
    at = next;
  }
  return Buffer.concat(kept);
}

/** A RIFF chunk: its type, size and payload, padded to an even length. */
function riffChunk(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length, 4);
  return Buffer.concat([head, payload, ...(payload.length % 2 === 1 ? [Buffer.alloc(1)] : [])]);
}

function webp(bytes: Buffer): StrippedImage {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return null;
  const end = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  const kept: Buffer[] = [];
  let stripped = end < bytes.length;
  for (let at = 12; at < end; ) {
    if (at + 8 > end) return null;
    const type = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (at + 8 + size > end) return null;
    if (!WEBP_KEPT.has(type)) stripped = true;
    else if (type === 'ANMF') {
      // A frame holds chunks of its own after its 16 bytes of placing: only those that draw it stay.
      const frame = frameWithout(bytes.subarray(at + 8, at + 8 + size));
      if (frame === null) return null;
      if (frame.length !== size) stripped = true;
      kept.push(riffChunk('ANMF', frame));
    } else if (type === 'VP8X' && size >= 1) {
      const chunk = Buffer.from(bytes.subarray(at, Math.min(next, end)));
      chunk[8] = (chunk[8] as number) & ~(VP8X_EXIF | VP8X_XMP);
      kept.push(chunk);
    } else kept.push(bytes.subarray(at, Math.min(next, end)));
    at = next;
  }
  if (!stripped) return { bytes, stripped: false };
  const body = Buffer.concat(kept);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + body.length, 4);
  head.write('WEBP', 8, 'latin1');
  return { bytes: Buffer.concat([head, body]), stripped: true };
}
