// The formats the SRS service answers in: what the report engine renders (REPORT_FORMATS: html,
// pdf) and 'frx', the template with the run's data merged into its JSON connection (nothing
// rendered). The routes, the render pool, the answer's file name and the CLI all derive from
// this one list.

import { REPORT_FORMATS } from '../report/index.js';

export const RENDER_FORMATS = [...REPORT_FORMATS, 'frx'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

export function isRenderFormat(value: unknown): value is RenderFormat {
  return (RENDER_FORMATS as readonly unknown[]).includes(value);
}

/** The file name of an answer: the template's name with the format's extension ("Orders.pdf"). */
export function renderFileName(templateName: string, format: RenderFormat): string {
  return `${templateName}.${format}`;
}

/** The URL suffix of a format's route after the template name: ".frx.html", ".frx.pdf", and
 *  ".frx" for the merged template itself. */
export function renderRouteSuffix(format: RenderFormat): string {
  return format === 'frx' ? '.frx' : `.frx.${format}`;
}
