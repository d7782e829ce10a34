// A small seeded PRNG (sfc32 seeded through a string hash). Every random choice of the corpus
// generator goes through it, so one seed always gives byte-identical files.

/** cyrb128: turns a label into four 32-bit seeds for sfc32. */
function hashSeeds(label: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < label.length; i++) {
    const k = label.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(private readonly label: string) {
    [this.a, this.b, this.c, this.d] = hashSeeds(label);
    for (let i = 0; i < 12; i++) this.next(); // let the state mix before use
  }

  /** An independent stream: adding draws to one part of the generator leaves the others unchanged. */
  fork(name: string | number): Random {
    return new Random(`${this.label}/${name}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const result = (t + this.d) | 0;
    this.c = (this.c + result) | 0;
    return (result >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: `[[item, weight], …]`. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [item, weight] of items) {
      at -= weight;
      if (at < 0) return item;
    }
    return (items.at(-1) as readonly [T, number])[0];
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 0x10000).toString(16).padStart(4, '0');
    return out.slice(0, length);
  }

  /** Random UUID v4 (Pi up to 0.67.0). */
  uuidV4(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** Time-ordered UUID v7 (Pi from 0.67.1). */
  uuidV7(ms: number): string {
    const time = ms.toString(16).padStart(12, '0');
    const h = this.hex(20);
    const variant = ((parseInt(h[3] as string, 16) & 0x3) | 0x8).toString(16);
    return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${h.slice(0, 3)}-${variant}${h.slice(4, 7)}-${h.slice(8, 20)}`;
  }
}
