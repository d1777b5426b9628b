// A generated matrix (cross-tab) report in the shape of the Simple Matrix demo, bound to the same
// JSON connection as the generated list (report-fixture.js): one row dimension (customers), one
// column dimension (weeks), one data cell summing a numeric column, totals on both dimensions.
// The template is a 3 × 3 grid: corner, column header, column total / row header, data cell,
// row total / "Total", data in the total row, grand total.

/** The .frx text of the matrix report. */
export function matrixTemplate() {
  const border = 'Border.Lines="All" Border.Color="Gainsboro"';
  const cellIn =
    (font) =>
    (name, text, extra = '') =>
      `<TableCell Name="${name}" ${border} Text="${text}" VertAlign="Center" Font="${font}" ${extra}/>`;
  const cell = cellIn('Arial, 8pt');
  const boldCell = cellIn('Arial, 8pt, style=Bold');
  const head = 'Fill.Color="WhiteSmoke" HorzAlign="Center"';
  const money = 'HorzAlign="Right" Format="Number" Format.UseLocale="true"';
  return (
    `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Generated matrix">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection">
      <JsonTableDataSource Name="JSON" DataType="FastReport.Data.JsonConnection.JsonParser.JsonArray" ` +
    `Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
  </Dictionary>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="37.8">
      <TextObject Name="T" Width="718.2" Height="37.8" Text="Generated matrix" HorzAlign="Center" ` +
    `Font="Tahoma, 14pt, style=Bold"/>
    </ReportTitleBand>
    <DataBand Name="Data1" Width="718.2" Height="37.8">
      <MatrixObject Name="Matrix1" Left="0" Top="9.45" Width="245.7" Height="56.7" FixedRows="1" ` +
    `FixedColumns="1" AutoSize="false" DataSource="rows">
        <MatrixColumns>
          <Header Expression="[JSON.item.rows.item.week]"/>
        </MatrixColumns>
        <MatrixRows>
          <Header Expression="[JSON.item.rows.item.customer]"/>
        </MatrixRows>
        <MatrixCells>
          <Cell Expression="[JSON.item.rows.item.amount]"/>
        </MatrixCells>
        <TableColumn Name="Column1" Width="94.5"/>
        <TableColumn Name="Column2" Width="56.7"/>
        <TableColumn Name="Column3" Width="75.6"/>
        <TableRow Name="Row1" Height="18.9">
          ${boldCell('Cell1', 'Customer', head)}
          ${cell('Cell2', '[week]', `${head} AllowExpressions="false"`)}
          ${boldCell('Cell7', 'Total', head)}
        </TableRow>
        <TableRow Name="Row2" Height="18.9">
          ${cell('Cell3', '[customer]', 'AllowExpressions="false"')}
          ${cell('Cell4', '[amount]', `AllowExpressions="false" ${money}`)}
          ${cell('Cell8', '', money)}
        </TableRow>
        <TableRow Name="Row3" Height="18.9">
          ${boldCell('Cell5', 'Total', head)}
          ${cell('Cell6', '', money)}
          ${boldCell('Cell9', '', money)}
        </TableRow>
      </MatrixObject>
    </DataBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="18.9">
      <TextObject Name="F1" Left="518.2" Width="200" Height="18.9" Text="[PageNofM]" HorzAlign="Right" ` +
    `Font="Arial, 9pt"/>
    </PageFooterBand>
  </ReportPage>
</Report>`
  );
}

/**
 * `rows` data rows over `customers` × `weeks` cells: every (customer, week) pair occurs once in
 * each run of customers × weeks consecutive rows, in a scrambled order (so the header values do
 * not arrive sorted), and `rows / (customers × weeks)` times in all.
 */
export function matrixData(rows, customers = 1000, weeks = 50) {
  const cells = customers * weeks;
  if (rows % cells !== 0) throw new Error(`matrixData: ${rows} rows is not a multiple of ${cells} cells`);
  // A stride coprime with the cell count visits every cell once per `cells` rows.
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  let stride = 7919;
  while (gcd(stride, cells) !== 1) stride += 2;
  const width = String(customers).length;
  return {
    rows: Array.from({ length: rows }, (_, i) => {
      const q = (i * stride + Math.floor(i / cells)) % cells;
      return {
        customer: `Customer ${String(Math.floor(q / weeks) + 1).padStart(width, '0')}`,
        week: (q % weeks) + 1,
        amount: Math.round(((i * 7919) % 100000) + 0.5) / 100,
      };
    }),
  };
}
