// A generated list report in the shape SRS data has: one command's rows through FastReport's
// JSON connection, a title, a page header, one data band of five fields, a page footer with
// "Page N of M", and a summary with totals.

export function listTemplate() {
  const text = (name, left, width, expr, extra = '') =>
    `<TextObject Name="${name}" Left="${left}" Width="${width}" Height="18.9" Text="${expr}" Font="Arial, ` +
    `9pt" ${extra}/>`;
  const currency = 'HorzAlign="Right" Format="Currency" Format.UseLocale="true"';
  const headers = [
    text('H1', 0, 60, 'Id'),
    text('H2', 60, 250, 'Customer'),
    text('H3', 310, 200, 'City'),
    text('H4', 510, 100, 'Date'),
    text('H5', 610, 108, 'Amount', 'HorzAlign="Right"'),
  ].join('');
  return (
    `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Generated list">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection">
      <JsonTableDataSource Name="JSON" DataType="FastReport.Data.JsonConnection.JsonParser.JsonArray" ` +
    `Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
    <Total Name="AmountSum" Expression="[JSON.item.rows.item.amount]" Evaluator="Rows"/>
    <Total Name="RowCount" TotalType="Count" Evaluator="Rows"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="37.8">
      <TextObject Name="T" Width="718.2" Height="37.8" Text="Generated list" HorzAlign="Center" ` +
    `Font="Tahoma, 14pt, style=Bold"/>
    </ReportTitleBand>
    <PageHeaderBand Name="Header" Width="718.2" Height="22.68" Fill.Color="WhiteSmoke">
      ${headers}
    </PageHeaderBand>
    <DataBand Name="Rows" Width="718.2" Height="18.9" DataSource="rows" EvenStyle="Even">
      ${text('D1', 0, 60, '[JSON.item.rows.item.id]')}
      ${text('D2', 60, 250, '[JSON.item.rows.item.customer]')}
      ${text('D3', 310, 200, '[IIf([JSON.item.rows.item.city] == null, &quot;-&quot;, [JSON.item.rows.item.city])]')}
      ${text('D4', 510, 100, '[JSON.item.rows.item.day]')}
      ${text('D5', 610, 108, '[JSON.item.rows.item.amount]', currency)}
    </DataBand>
    <ReportSummaryBand Name="Summary" Width="718.2" Height="18.9">
      ${text('S1', 0, 400, '[RowCount] rows')}${text('S2', 510, 208, '[AmountSum]', currency)}
    </ReportSummaryBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="18.9">
      ${text('F1', 518.2, 200, '[PageNofM]', 'HorzAlign="Right"')}
    </PageFooterBand>
  </ReportPage>
  <Styles><Style Name="Even" Fill.Color="AliceBlue"/></Styles>
</Report>`
  );
}

export function listData(rows) {
  const cities = ['Berlin', 'Zürich', null, 'Lisboa', 'Αθήνα', 'Москва'];
  return {
    rows: Array.from({ length: rows }, (_, i) => ({
      id: i + 1,
      customer: `Customer ${i + 1} & Sons`,
      city: cities[i % cities.length],
      day: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      amount: Math.round(((i * 7919) % 100000) + 0.5) / 100,
    })),
  };
}

/** The same list with a C# BeforePrint handler on every row (it colours the amount from its
 *  value), as a script-heavy report. */
export function scriptedListTemplate() {
  const script = `<ScriptText>public class ReportScript {
  private void Rows_BeforePrint(object sender, EventArgs e) {
    double amount = Convert.ToDouble(Report.GetColumnValue(&quot;JSON.item.rows.item.amount&quot;));
    D5.TextColor = amount &gt; 500 ? Color.Red : Color.Black;
  }
}</ScriptText>`;
  return listTemplate()
    .replace('<Dictionary>', `${script}\n  <Dictionary>`)
    .replace('<DataBand Name="Rows"', '<DataBand Name="Rows" BeforePrintEvent="Rows_BeforePrint"');
}
