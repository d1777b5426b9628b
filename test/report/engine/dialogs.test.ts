// Dialog forms: the report runs as if OK was pressed at once, so texts read the
// designed values of the controls; a render parameter of a control's name is the value a user
// would have entered.
import { describe, expect, it } from 'vitest';
import { runTemplate, textsOf } from './helpers.js';

const frx = `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="200">
      <TextObject Name="T" Width="700" Height="20" Text="[TextBox1.Text]|[CheckBox1.Checked]|[CheckBox2.Checked]"/>
      <TextObject Name="D" Top="20" Width="700" Height="20" Text="[DateTimePicker1.Value]"
        Format="Date" Format.Format="yyyy-MM-dd"/>
      <TextObject Name="L" Top="40" Width="700" Height="20"
        Text="[ListBox1.SelectedItem]|[ListBox1.SelectedIndex]|[ComboBox1.Text]"/>
      <TextObject Name="F" Top="60" Width="700" Height="20" Text="[Form1.Visible]|[Form1.Text]|[TextBox1.Enabled]"/>
      <TextObject Name="N" Top="80" Width="700" Height="20" Text="[UpDown1.Value + 1]"/>
    </ReportTitleBand>
  </ReportPage>
  <DialogPage Name="Form1" Text="Options">
    <ButtonControl Name="Ok" Text="OK" DialogResult="OK"/>
    <TextBoxControl Name="TextBox1" Text="Hello!"/>
    <CheckBoxControl Name="CheckBox1" Text="one" Checked="true" CheckState="Checked"/>
    <GroupBoxControl Name="Group1" Text="group">
      <CheckBoxControl Name="CheckBox2" Text="two"/>
    </GroupBoxControl>
    <DateTimePickerControl Name="DateTimePicker1" Value="03/11/2013 02:00:10"/>
    <ListBoxControl Name="ListBox1" ItemsText="a&#13;&#10;b&#13;&#10;c" SelectedIndex="1"/>
    <ComboBoxControl Name="ComboBox1" Text="pick one" ItemsText="x&#13;&#10;y"/>
    <NumericUpDownControl Name="UpDown1" Value="41"/>
  </DialogPage>
</Report>`;

describe('a report with a dialog form', () => {
  it('reads every control’s designed value, nested controls included', () => {
    const { prepared, warnings } = runTemplate(frx);
    expect(textsOf(prepared, 'T')).toEqual(['Hello!|True|False']);
    expect(textsOf(prepared, 'D')).toEqual(['2013-03-11']);
    expect(textsOf(prepared, 'L')).toEqual(['b|1|pick one']);
    expect(textsOf(prepared, 'F')).toEqual(['True|Options|True']);
    expect(textsOf(prepared, 'N')).toEqual(['42']);
    // A render has no user: the form runs as if closed with OK, which is no loss to warn about.
    expect(warnings).toEqual([]);
  });

  it('takes a render parameter of a control’s name as what the user entered', () => {
    const { prepared } = runTemplate(
      frx,
      {},
      {
        parameters: { TextBox1: 'typed', CheckBox1: 'false', DateTimePicker1: '2024-05-17', ComboBox1: 'y' },
      },
    );
    expect(textsOf(prepared, 'T')).toEqual(['typed|False|False']);
    expect(textsOf(prepared, 'D')).toEqual(['2024-05-17']);
    expect(textsOf(prepared, 'L')).toEqual(['b|1|y']);
  });
});
