// Errors and warnings of the report engine. A TemplateError is "this template (or its data)
// cannot be rendered" and always says where; everything the engine can degrade gracefully
// (an unsupported object, a script it will not run) is a warning instead.

export class TemplateError extends Error {
  /** Where: an object name, `Text12.Text`, `Dictionary/Parameter[Name=x]`, a line number… */
  readonly where: string | undefined;

  constructor(message: string, where?: string) {
    super(where ? `${where}: ${message}` : message);
    this.name = 'TemplateError';
    this.where = where;
  }
}

/** Collects non-fatal problems of one load/render, without duplicates, in order. */
export class ReportWarnings {
  private readonly seen = new Set<string>();
  readonly list: string[] = [];

  add(message: string): void {
    if (this.seen.has(message) || this.list.length >= 1000) return;
    this.seen.add(message);
    this.list.push(message);
  }
}

/** A streamed document grew past RenderOptions.maxOutputBytes. Its bytes live outside the
 *  JavaScript heap (a PDF's chunks, the HTML byte buffer), so a heap limit alone would not stop a
 *  report that streams: this is the same limit, counted on the output. */
export class RenderOutputTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the document grew past ${maxBytes} bytes`);
    this.name = 'RenderOutputTooLargeError';
  }
}

/** The report needs more pages than the run may produce (the engine's `maxPages`: the service's
 *  page limit, Settings:RenderMaxPages in the server). Not a TemplateError: the template is fine,
 *  this run of it is too large; narrower data or a higher limit is the way out. A template's own
 *  MaxPages never raises it (the report stops there, as FastReport does). */
export class RenderTooLargeError extends Error {
  constructor(readonly maxPages: number) {
    super(`the report has more than ${maxPages} pages`);
    this.name = 'RenderTooLargeError';
  }
}
