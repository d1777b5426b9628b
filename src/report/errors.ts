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
