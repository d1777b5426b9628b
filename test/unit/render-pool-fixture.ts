// Shared by the render-pool tests: a generated list report in the shape SRS data has (one
// command's rows through the JSON connection), with the report date and currency amounts so
// that `nowMs` and `culture` show in the output.
import { afterEach } from 'vitest';
import { createRenderPool, type RenderPool } from '../../src/srs/render-pool/index.js';

/**
 * A createRenderPool for one test file whose pools are all closed after each test (their worker
 * threads would otherwise outlive it). Call at the top of the file: it registers the hook.
 */
export function renderPoolsClosedAfterEach(): (opts: Parameters<typeof createRenderPool>[0]) => RenderPool {
  const pools: RenderPool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });
  return (opts) => {
    const p = createRenderPool(opts);
    pools.push(p);
    return p;
  };
}

const CURRENCY = 'HorzAlign="Right" Format="Currency" Format.UseLocale="true"';

export function listTemplate(title = 'Generated list'): string {
  const text = (name: string, left: number, width: number, expr: string, extra = '') =>
    `<TextObject Name="${name}" Left="${left}" Width="${width}" Height="18.9" Text="${expr}" Font="Arial, ` +
    `9pt" ${extra}/>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="${title}">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection">
      <JsonTableDataSource Name="JSON" DataType="FastReport.Data.JsonConnection.JsonParser.JsonArray" ` +
    `Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
    <Total Name="AmountSum" Expression="[JSON.item.rows.item.amount]" Evaluator="Rows"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="37.8">
      ${text('T', 0, 400, title)}${text('Now', 400, 318.2, '[Date]', 'Format="Date" Format.Format="yyyy-MM-dd HH:mm"')}
    </ReportTitleBand>
    <DataBand Name="Rows" Width="718.2" Height="18.9" DataSource="rows">
      ${text('D1', 0, 60, '[JSON.item.rows.item.id]')}
      ${text('D2', 60, 250, '[JSON.item.rows.item.customer]')}
      ${text('D5', 610, 108, '[JSON.item.rows.item.amount]', CURRENCY)}
    </DataBand>
    <ReportSummaryBand Name="Summary" Width="718.2" Height="18.9">
      ${text('S2', 510, 208, '[AmountSum]', 'HorzAlign="Right" Format="Currency" Format.UseLocale="true"')}
    </ReportSummaryBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="18.9">
      ${text('F1', 518.2, 200, '[PageNofM]', 'HorzAlign="Right"')}
    </PageFooterBand>
  </ReportPage>
</Report>`
  );
}

export function listData(rows: number): { rows: { id: number; customer: string; amount: number }[] } {
  return {
    rows: Array.from({ length: rows }, (_, i) => ({
      id: i + 1,
      customer: `Customer ${i + 1} & Sons`,
      amount: Math.round(((i * 7919) % 100000) + 0.5) / 100,
    })),
  };
}

/** Polls `condition` every few milliseconds until it holds (or fails after `ms`). */
export async function waitFor(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Settles a promise into a plain record, so a test can look at the order of settlements. */
export function track<T>(promise: Promise<T>): { promise: Promise<T>; settled: boolean } {
  const t = { promise, settled: false };
  promise.then(
    () => (t.settled = true),
    () => (t.settled = true),
  );
  return t;
}

/** A PDF's text with what changes from one run to the next (creation time, document ID) masked. */
export function withoutPdfTimestamps(pdf: Uint8Array): string {
  return Buffer.from(pdf)
    .toString('latin1')
    .replace(/\(D:\d{14}Z\)/g, '(D:…)')
    .replace(/<xmp:CreateDate>[^<]*<\/xmp:CreateDate>/g, '<xmp:CreateDate/>')
    .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, '/ID […]');
}
