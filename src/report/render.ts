// View models → HTML with Eta. Templates are given as sources (read by the caller), so rendering
// is a pure function of them and the view model.

import { Eta } from 'eta';
import { escapeHtml } from './escape.js';

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
  /** The relative path from this page to the report root: "" or "../". */
  root: string;
  generator: string;
  csp: string;
}

export interface PageRenderer {
  render(template: string, layout: LayoutView, view: object): string;
}

export function createRenderer(sources: TemplateSources): PageRenderer {
  const eta = new Eta({ autoEscape: true, escapeFunction: escapeHtml, autoTrim: [false, 'nl'], cache: true, useWith: false });
  for (const [name, source] of Object.entries(sources)) eta.loadTemplate(`@${name}`, source);
  return {
    render(template, layout, view) {
      const body = eta.render(`@${template}`, { layout, view });
      return eta.render('@layout', { layout, body });
    },
  };
}
