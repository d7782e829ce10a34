// bough's own files shipped beside the compiled code: templates, page assets, sample sessions.
// Read-only; nothing here touches session data.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { filesUnder } from './files-under.js';
import { fileURLToPath } from 'node:url';
import type { TemplateSources } from './report/render.js';

/** The package root: one level above src/ (tests) or dist/ (installed). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SAMPLES_DIR = join(PACKAGE_ROOT, 'samples');

export async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

export async function loadTemplates(): Promise<TemplateSources> {
  const root = join(PACKAGE_ROOT, 'templates');
  const sources: Record<string, string> = {};
  for (const path of await filesUnder(root)) {
    if (!path.endsWith('.eta')) continue;
    sources[path.slice(0, -'.eta'.length)] = await readFile(join(root, path), 'utf8');
  }
  return sources;
}

/** The report's static assets, by path relative to the report's assets/ folder. */
export async function loadAssets(): Promise<Map<string, Buffer>> {
  const root = join(PACKAGE_ROOT, 'assets');
  const assets = new Map<string, Buffer>();
  for (const path of await filesUnder(root)) assets.set(path, await readFile(join(root, path)));
  return assets;
}

let stamp: Promise<string> | null = null;

/**
 * Names the code that is running: bough's version and a hash of its code, templates and assets.
 * Whatever bough cached or kept is used only by the very code that wrote it.
 */
export function codeStamp(): Promise<string> {
  stamp ??= (async () => {
    const code = dirname(fileURLToPath(import.meta.url));
    const hash = createHash('sha256').update(await packageVersion());
    // Read synchronously: every run reads these 150-odd small files before anything else, and each
    // asynchronous read took several trips through the file-system threads (60 ms against 30 ms).
    for (const path of (await filesUnder(code)).sort()) {
      if (/\.(js|ts)$/.test(path)) hash.update(path).update(readFileSync(join(code, path)));
    }
    // Pages kept from an earlier build must look as this build would write them: its templates and assets too.
    for (const folder of ['templates', 'assets']) {
      for (const path of await filesUnder(join(PACKAGE_ROOT, folder))) hash.update(`${folder}/${path}`).update(readFileSync(join(PACKAGE_ROOT, folder, path)));
    }
    return hash.digest('hex').slice(0, 32);
  })();
  return stamp;
}
