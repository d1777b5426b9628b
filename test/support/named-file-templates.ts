// Templates that name files beside them, for the tests of where such files may be read from: a
// CSV data connection, a map layer's shapefile, an inherited report's base.

/** A list of the rows of a CSV file's `people` table, one `text` per row. */
export const csvTemplate = (file: string, text = '[people.Name]') =>
  '<?xml version="1.0" encoding="utf-8"?><Report><Dictionary>' +
  `<CsvDataConnection Name="C" ConnectionString="CsvFile=${file};Separator=,;FieldNamesInFirstString=true">` +
  '<TableDataSource Name="people" DataType="System.Int32" Enabled="true" TableName="people"/>' +
  '</CsvDataConnection></Dictionary><ReportPage Name="Page1">' +
  `<DataBand Name="D" Width="718.2" Height="20" DataSource="people">` +
  `<TextObject Name="Tx" Width="300" Height="20" Text="${text}"/></DataBand></ReportPage></Report>`;

/** A map of one layer read from `shapefile`, labelled by its NAME column. */
export const mapTemplate = (shapefile: string) => `<?xml version="1.0" encoding="utf-8"?>
<Report><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="100">
  <MapObject Name="M" Width="100" Height="100">
    <MapLayer Name="L" Type="Polygon" Shapefile="${shapefile}" LabelColumn="NAME"/>
  </MapObject>
</ReportTitleBand></ReportPage></Report>`;

/** A report whose one page says `text`: the base of an inherited report. */
export const baseTemplate = (text: string) =>
  '<?xml version="1.0" encoding="utf-8"?><Report><ReportPage Name="Page1">' +
  `<ReportTitleBand Name="T" Width="718.2" Height="20"><TextObject Name="B" Width="400" Height="20" Text="${text}"/>` +
  '</ReportTitleBand></ReportPage></Report>';

/** An inherited report that changes nothing of its base `base`. */
export const inheritedTemplate = (base: string) =>
  `<?xml version="1.0" encoding="utf-8"?><inherited BaseReport="${base}"/>`;
