// A render worker's warm-up (RenderPool.warmUp): a few renders of built-in list reports, in
// PDF and HTML, before the worker takes its first job. A fresh worker's first 1,000-row render
// takes 5–7 times as long as a warm one (about 250 ms vs 40: V8 runs the engine and exporters
// unoptimised, font tables are parsed, pdfkit and zlib start).
// The reports touch what most reports do: .frx load, JSON binding, expressions and IIf, the
// General, Number, Currency and Date formats, totals, page header and footer with page numbers,
// the bundled fonts (Arimo, and Tinos/Cousine for the other families), the PDF writer with font
// subsetting and deflate, the HTML writer.
// Two styles of the same list, alternating (WarmupStyle): warmed on one style only, a job whose
// template is written the other way still ran 3.2–3.4 times as long as a warm one. V8 had
// optimised the engine for the model objects and code paths of that one template, and a new
// template's first render deoptimised and recompiled it (--trace-deopt: "wrong map" in the
// text and band layout; the late page totals of [PageNofM] never run). Warmed on both styles,
// and for 12 rounds (ROUNDS), the same first render takes 1.3–1.5 times a warm one.

import { renderDocument, setFontDirs } from '../../report/index.js';

// Measured on the first 1,000-row render after start (bench/cold-start.js): 8 rounds left it at
// 1.7–1.9 times a warm one, 12 at 1.3–1.5; 12 rounds take about 0.55 s of one core.
const ROUNDS = 12;
const ROWS = 200;
/** A render's clock: fixed, so that the warm-up does the same work every time. */
const NOW = new Date(Date.UTC(2026, 0, 1));

export interface WarmupResult {
  renders: number;
  ms: number;
  /** What stopped it early, if a render failed (the worker is still usable). */
  error?: string;
}

/** Renders the warm-up report until ROUNDS rounds are done, `budgetMs` has passed or `stop()`
 *  says a job has come. Before each render it lets the worker's messages in (a macrotask), so a
 *  job that arrives meanwhile waits for one 200-row render at most. */
export async function warmUp(
  budgetMs: number,
  fontDirs: string[] | undefined,
  stop: () => boolean,
): Promise<WarmupResult> {
  const start = performance.now();
  const ms = () => Math.round(performance.now() - start);
  if (fontDirs) setFontDirs(fontDirs);
  const templates = WARMUP_STYLES.map(warmupTemplate);
  const data = { json: warmupData(ROWS) };
  let renders = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const template = templates[round % templates.length]!;
      for (const format of ['pdf', 'html'] as const) {
        await new Promise((resolve) => setImmediate(resolve));
        if (stop() || performance.now() - start > budgetMs) return { renders, ms: ms() };
        // The jobs' own call (render-job.ts), so the code the first job runs is the code warmed.
        renderDocument({ template, data, format, htmlAsBytes: true, now: NOW, culture: 'en-US' });
        renders++;
      }
    }
  } catch (err) {
    return { renders, ms: ms(), error: err instanceof Error ? err.message : String(err) };
  }
  return { renders, ms: ms() };
}

/**
 * How the list is written. `compact`: fonts only where they differ from the report's default,
 * the footer's page numbers as `Page [Page#] of [TotalPages#]`. `designer`: as FastReport's
 * designer saves a report, every object with its font, and the footer as `[PageNofM]`.
 */
export type WarmupStyle = 'compact' | 'designer';
export const WARMUP_STYLES: readonly WarmupStyle[] = ['compact', 'designer'];

const DESIGNER_FONT = 'Font="Arial, 9pt"';

const ROW = 'JSON.item.rows.item';
const MONEY = 'HorzAlign="Right" Format="Currency" Format.UseLocale="true"';
const NUMBER =
  'HorzAlign="Right" Format="Number" Format.UseLocale="false" Format.DecimalDigits="1" ' +
  'Format.DecimalSeparator="." Format.GroupSeparator=","';

export function warmupTemplate(style: WarmupStyle = 'compact'): string {
  const text = (name: string, left: number, width: number, expr: string, extra = ''): string => {
    const font = style === 'designer' && !extra.includes('Font=') ? ` ${DESIGNER_FONT}` : '';
    return `<TextObject Name="${name}" Left="${left}" Width="${width}" Height="18.9" Text="${expr}" ${extra}${font}/>`;
  };
  const title = style === 'designer' ? ' HorzAlign="Center"' : '';
  const pages = style === 'designer' ? '[PageNofM]' : 'Page [Page#] of [TotalPages#]';
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Warm-up">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection">
      <JsonTableDataSource Name="JSON" Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
    <Total Name="Sum" Expression="[${ROW}.amount]" Evaluator="Rows"/>
    <Total Name="Count" TotalType="Count" Evaluator="Rows"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="37.8">
      <TextObject Name="T" Width="500" Height="37.8" Text="Warm-up" Font="Tahoma, 14pt, style=Bold"${title}/>
      ${text('T2', 510, 208, '[Date]', 'HorzAlign="Right" Format="Date" Format.Format="d MMM yyyy"')}
    </ReportTitleBand>
    <PageHeaderBand Name="Header" Width="718.2" Height="18.9" Fill.Color="WhiteSmoke">
      ${text('H1', 0, 60, 'Id')}${text('H2', 60, 240, 'Name', 'Font="Times New Roman, 9pt"')}
      ${text('H3', 300, 110, 'Day')}${text('H4', 410, 100, 'Share')}${text('H5', 510, 208, 'Amount')}
    </PageHeaderBand>
    <DataBand Name="Rows" Width="718.2" Height="18.9" DataSource="rows" EvenStyle="Even">
      ${text('D1', 0, 60, `[${ROW}.id]`, 'Font="Courier New, 9pt"')}
      ${text('D2', 60, 240, `[IIf([${ROW}.name] == null, &quot;-&quot;, [${ROW}.name])]`)}
      ${text('D3', 300, 110, `[${ROW}.day]`)}
      ${text('D4', 410, 100, `[${ROW}.share]`, NUMBER)}${text('D5', 510, 208, `[${ROW}.amount]`, MONEY)}
    </DataBand>
    <ReportSummaryBand Name="Summary" Width="718.2" Height="18.9">
      ${text('S1', 0, 300, '[Count] rows', 'Font="Arial, 9pt, style=Bold"')}${text('S2', 510, 208, '[Sum]', MONEY)}
    </ReportSummaryBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="18.9">
      ${text('F1', 418.2, 300, pages, 'HorzAlign="Right"')}
    </PageFooterBand>
  </ReportPage>
  <Styles><Style Name="Even" Fill.Color="AliceBlue"/></Styles>
</Report>`;
}

export function warmupData(rows: number) {
  const names = ['Ada & Sons', 'Zürich AG', null, 'Αθήνα', 'Москва', 'Łódź'];
  return {
    rows: Array.from({ length: rows }, (_, i) => ({
      id: i + 1,
      name: names[i % names.length],
      day: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      share: ((i * 37) % 1000) / 10,
      amount: Math.round((i * 7919) % 100000) / 100,
    })),
  };
}
