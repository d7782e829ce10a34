// View models → HTML with Eta. Templates are given as sources (read by the caller), so rendering
// is a pure function of them and the view model.

import { createHash } from 'node:crypto';
import { Eta } from 'eta';
import { escapeHtml, pathHtml } from './escape.js';

/** Template name (e.g. "session", "partials/entry") → its Eta source. */
export type TemplateSources = Readonly<Record<string, string>>;

/**
 * No inline script, no eval, no frames, no network: the stylesheet and script come from the
 * report folder itself, images only from data: URLs bough built.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  'img-src data:',
  "font-src 'none'",
  "connect-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "media-src 'none'",
  "manifest-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export interface LayoutView {
  title: string;
  /** What the report covers: "October 2026 · Europe/Berlin". */
  scope: string;
  /** The same in the middle of a sentence: "all time · UTC", "since 2026-11-01 · UTC". */
  covers: string;
  /** The relative path from this page to the report root: "" or "../". */
  root: string;
  generator: string;
  csp: string;
  /** The header link this page is (marked aria-current): the overview, a project, data quality; null elsewhere. */
  current: 'overview' | 'projects' | 'quality' | null;
}

export interface PageRenderer {
  render(template: string, layout: LayoutView, view: object): string;
  /** A partial alone ("partials/entry"), for pages assembled from pieces measured one by one. */
  partial(template: string, data: object): string;
  /** A page that needs no other file: the stylesheet and script inside it, allowed by their hashes. */
  /** A page in one file; `sharing` says what was redacted or left out, as a report's overview does. */
  standalone(template: string, layout: Omit<LayoutView, 'csp' | 'root' | 'covers'> & { sharing: string | null; sourceHash: string }, view: object, inline: { css: string; js: string }): string;
}

/** The policy of a page carrying its own style and script: only those exact texts may run. */
export function standalonePolicy(inline: { css: string; js: string }): string {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  return CONTENT_SECURITY_POLICY.replace("style-src 'self'", `style-src ${hash(inline.css)}`).replace("script-src 'self'", `script-src ${hash(inline.js)}`);
}

export function createRenderer(sources: TemplateSources): PageRenderer {
  const eta = new Eta({ autoEscape: true, escapeFunction: escapeHtml, autoTrim: [false, 'nl'], cache: true, useWith: false });
  for (const [name, source] of Object.entries(sources)) eta.loadTemplate(`@${name}`, source);
  return {
    render(template, layout, view) {
      const body = eta.render(`@${template}`, { layout, view, pathHtml });
      return eta.render('@layout', { layout, body });
    },
    partial(template, data) {
      return eta.render(`@${template}`, data);
    },
    standalone(template, layout, view, inline) {
      const full = { ...layout, root: '', csp: standalonePolicy(inline) };
      const body = eta.render(`@${template}`, { layout: full, view, pathHtml });
      return eta.render('@standalone-layout', { layout: full, body, inline });
    },
  };
}
