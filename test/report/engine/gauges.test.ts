// Gauges: the pointer where FastReport's geometry puts it for the value, the scale's
// ticks and labels, the value clamped to Minimum…Maximum, the progress label, the radial needle's
// angle, the Gauge demo against nwind.xml, both exports, and hostile sizes and values.
// Expected positions are computed here from FastReport's formulas (1 cm = 37.8 px), not by the
// engine's geometry module; toBeCloseTo(…, 2) holds them within 0.005 px.

import { describe, expect, it } from 'vitest';
import type { PreparedBox, PreparedItem, PreparedPath, PreparedText } from '../../../src/report/engine/prepared.js';
import { shownText } from '../../../src/report/engine/prepared.js';
import type { EngineContext } from '../../../src/report/engine/context.js';
import { gaugeObject } from '../../../src/report/engine/gauge-object.js';
import { newRtObject } from '../../../src/report/engine/runtime.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import type { GaugeObjectModel } from '../../../src/report/frx/model.js';
import { renderReport } from '../../../src/report/index.js';
import { rasterizeRgb } from '../../support/barcode-readers.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { nwindDataSet, nwindRows, runTemplate } from './helpers.js';

const CM = 37.8;

const page = (objects: string, dictionary = ''): string =>
  `<Report><Dictionary>${dictionary}</Dictionary><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" ` +
  `Height="400">${objects}</ReportTitleBand></ReportPage></Report>`;

function items(xml: string): PreparedItem[] {
  const r = runTemplate(page(xml));
  return r.prepared.pages.flatMap((p) => p.items);
}

const byName = (all: PreparedItem[], name: string) => all.filter((i) => i.name === name);
const path = (all: PreparedItem[], name: string): PreparedPath => {
  const p = all.find((i): i is PreparedPath => i.kind === 'path' && i.name === name);
  if (!p) throw new Error(`no path ${name}`);
  return p;
};
const count = (all: PreparedItem[], prefix: string) =>
  all.filter((i) => i.name.startsWith(prefix) && /\.\d+$/.test(i.name.slice(prefix.length - 1))).length;
const labels = (all: PreparedItem[], prefix: string): string[] =>
  all
    .filter(
      (i): i is PreparedText =>
        i.kind === 'text' && i.name.startsWith(prefix) && /^\d+$/.test(i.name.slice(prefix.length)),
    )
    .sort((a, b) => Number(a.name.slice(prefix.length)) - Number(b.name.slice(prefix.length)))
    .map(shownText);

/** The page coordinates of the points of a path made of M/L commands. */
function points(p: PreparedPath): [number, number][] {
  const nums = (p.d.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g) ?? []).map(Number);
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < nums.length; i += 2) out.push([p.x + nums[i]!, p.y + nums[i + 1]!]);
  return out;
}

const close = (a: [number, number], b: [number, number]) => {
  expect(a[0]).toBeCloseTo(b[0], 2);
  expect(a[1]).toBeCloseTo(b[1], 2);
};

/** The band starts at the page's top margin; items are in page coordinates. */
function origin(all: PreparedItem[], name: string): [number, number] {
  const box = all.find((i): i is PreparedBox => i.kind === 'box' && i.name === name);
  if (!box) throw new Error(`no box ${name}`);
  return [box.x, box.y];
}

describe('LinearGauge', () => {
  const W = 302.4;
  const H = 75.6;
  const gauge = (attrs: string) => items(`<LinearGauge Name="L" Left="10" Top="20" Border.Lines="All" ${attrs}/>`);

  it('puts the pentagon tip at the value along the scale box, W·0.036 wide and H·0.4 tall', () => {
    const all = gauge('Value="40"');
    const [x0, y0] = origin(all, 'L');
    const tip: [number, number] = [x0 + 0.5 * CM + (W - CM) * 0.4, y0 + H / 2];
    const p = points(path(all, 'L.pointer'));
    close(p[0]!, tip);
    close(p[1]!, [tip[0] + (W * 0.036) / 2, tip[1] + H * 0.4 * 0.3]);
    close(p[2]!, [tip[0] + (W * 0.036) / 2, tip[1] + H * 0.4]);
    close(p[3]!, [tip[0] - (W * 0.036) / 2, tip[1] + H * 0.4]);
    close(p[4]!, [tip[0] - (W * 0.036) / 2, tip[1] + H * 0.4 * 0.3]);
  });

  it('mirrors the pointer upwards when Inverted', () => {
    const all = gauge('Value="40" Inverted="true"');
    const [x0, y0] = origin(all, 'L');
    const p = points(path(all, 'L.pointer'));
    close(p[2]!, [x0 + 0.5 * CM + (W - CM) * 0.4 + (W * 0.036) / 2, y0 + H / 2 - H * 0.4]);
  });

  it('draws 6 major and 15 minor ticks, labels Minimum + k·trunc((Max − Min)/5)', () => {
    const all = gauge('');
    expect(count(all, 'L.tick.major.')).toBe(6);
    expect(count(all, 'L.tick.minor.')).toBe(15);
    expect(labels(all, 'L.label.')).toEqual(['0', '20', '40', '60', '80', '100']);
    // trunc(33/5) = 6: the labels stop short of Maximum, as FastReport's do.
    expect(labels(gauge('Maximum="33"'), 'L.label.')).toEqual(['0', '6', '12', '18', '24', '30']);
    expect(labels(gauge('Minimum="-1.5" Maximum="8.5"'), 'L.label.')).toEqual([
      '-1.5',
      '0.5',
      '2.5',
      '4.5',
      '6.5',
      '8.5',
    ]);
    // Major ticks span the scale box's height, minor ticks its middle 60 %.
    const t = points(path(all, 'L.tick.major.5'));
    const [x0, y0] = origin(all, 'L');
    close(t[0]!, [x0 + W - 0.5 * CM, y0 + 0.6 * CM]);
    close(t[1]!, [x0 + W - 0.5 * CM, y0 + H - 0.6 * CM]);
    const m = points(path(all, 'L.tick.minor.0'));
    close(m[0]!, [x0 + 0.5 * CM + (W - CM) / 20, y0 + 0.6 * CM + (H - 1.2 * CM) * 0.2]);
  });

  it('grows upwards when taller than wide', () => {
    const all = items(
      '<LinearGauge Name="V" Left="0" Top="0" Width="75.6" Height="302.4" Value="25" Border.Lines="All"/>',
    );
    const [x0, y0] = origin(all, 'V');
    close(points(path(all, 'V.pointer'))[0]!, [x0 + 75.6 / 2, y0 + 302.4 - 0.5 * CM - (302.4 - CM) * 0.25]);
    const zero = points(path(all, 'V.tick.major.0'));
    close(zero[0]!, [x0 + 0.7 * CM, y0 + 302.4 - 0.5 * CM]);
  });
});

describe('the value', () => {
  const tipX = (expr: string, attrs = '') => {
    const all = items(`<LinearGauge Name="L" Border.Lines="All" Value="30" Expression="${expr}" ${attrs}/>`);
    return (points(path(all, 'L.pointer'))[0]![0] - origin(all, 'L')[0] - 0.5 * CM) / (302.4 - CM);
  };

  it('is the Expression clamped to Minimum…Maximum; text that is no number is 0; NaN keeps the Value', () => {
    expect(tipX('75')).toBeCloseTo(0.75, 4);
    expect(tipX('150')).toBeCloseTo(1, 3);
    expect(tipX('-5')).toBeCloseTo(0, 3);
    expect(tipX('&quot;abc&quot;', 'Minimum="-100"')).toBeCloseTo(0.5, 4);
    expect(tipX('&quot;42.5&quot;')).toBeCloseTo(0.425, 4);
    expect(tipX('12.5m')).toBeCloseTo(0.125, 3);
    expect(tipX('(float)60.5')).toBeCloseTo(0.605, 3);
    expect(tipX('1.0/0')).toBeCloseTo(1, 3);
    expect(tipX('0.0/0')).toBeCloseTo(0.3, 4);
  });

  it('ignores a Minimum not below the Maximum (FastReport refuses it), so Min > Max never happens', () => {
    expect(tipX('50', 'Minimum="200"')).toBeCloseTo(0.5, 4);
    expect(tipX('50', 'Maximum="-3"')).toBeCloseTo(0.5, 4);
    expect(tipX('50', 'Minimum="100"')).toBeCloseTo(0.5, 4);
  });
});

describe('SimpleGauge and SimpleProgressGauge', () => {
  it('SimpleGauge: a bar from 0.5 cm, 8 % of the height, ticks above and below a gap', () => {
    const all = items('<SimpleGauge Name="S" Border.Lines="All" Border.Width="2" Value="60" Pointer.Height="5"/>');
    const [x0, y0] = origin(all, 'S');
    const W = 302.4;
    const H = 75.6;
    const bw = 2;
    const p = points(path(all, 'S.pointer'));
    const h = (H - bw) * 0.08;
    close(p[0]!, [x0 + bw / 2 + 0.5 * CM, y0 + bw / 2 + (H - bw) / 2 - h / 2]);
    close(p[2]!, [x0 + bw / 2 + 0.5 * CM + (W - bw - CM) * 0.6, y0 + bw / 2 + (H - bw) / 2 + h / 2]);
    expect(count(all, 'S.tick.major.first.')).toBe(6);
    expect(count(all, 'S.tick.major.second.')).toBe(6);
    expect(count(all, 'S.tick.minor.first.')).toBe(15);
    expect(count(all, 'S.tick.minor.second.')).toBe(15);
    expect(labels(all, 'S.label.second.')).toEqual(['0', '20', '40', '60', '80', '100']);
    // The upper major ticks end Pointer.Height/2 + 2·Pointer.BorderWidth above the centre line.
    const t = points(path(all, 'S.tick.major.first.0'));
    const boxH = H - 1.2 * CM;
    close(t[1]!, [x0 + 0.5 * CM, y0 + 0.6 * CM + boxH / 2 - (5 / 2 + 2)]);
  });

  it('SimpleProgressGauge: the percentage rounded half to even, a Full bar and a Small one', () => {
    const label = (v: string, attrs = '') =>
      items(`<SimpleProgressGauge Name="G" Value="${v}" ${attrs}/>`)
        .filter((i): i is PreparedText => i.kind === 'text' && i.name === 'G.label')
        .map(shownText)[0];
    expect(label('12.5')).toBe('12%');
    expect(label('13.5')).toBe('14%');
    expect(label('33.3333', 'Label.Decimals="2"')).toBe('33.33%');
    expect(label('5', 'Minimum="0" Maximum="20"')).toBe('25%');
    expect(label('0.25', 'Maximum="1"')).toBe('25%');
    const all = items('<SimpleProgressGauge Name="G" Value="40"/>');
    const [x0, y0] = origin(all, 'G');
    const p = points(path(all, 'G.pointer'));
    close(p[0]!, [x0 + 0.5, y0 + 0.5]);
    close(p[2]!, [x0 + 0.5 + (302.4 - 1) * 0.4, y0 + 0.5 + 75.6 - 1]);
    expect(count(all, 'G.tick.major.first.')).toBe(0);
    const small = items('<SimpleProgressGauge Name="G" Value="40" Pointer.Type="Small"/>');
    const s = points(path(small, 'G.pointer'));
    const w = (302.4 - 1) * 0.1;
    close(s[0]!, [x0 + 0.5 + (302.4 - 1) * 0.4 - w / 2, y0 + 0.5]);
    close(s[1]!, [x0 + 0.5 + (302.4 - 1) * 0.4 + w / 2, y0 + 0.5]);
    // At the end the small bar stays inside the frame.
    const end = points(path(items('<SimpleProgressGauge Name="G" Value="100" Pointer.Type="Small"/>'), 'G.pointer'));
    close(end[1]!, [x0 + 0.5 + (302.4 - 1), y0 + 0.5]);
  });
});

describe('the progress label', () => {
  const label = (attrs: string): PreparedText => {
    const t = items(`<SimpleProgressGauge Name="G" ${attrs}/>`).find(
      (i): i is PreparedText => i.kind === 'text' && i.name === 'G.label',
    );
    if (!t) throw new Error('no label');
    return t;
  };

  it('is centred with no stored Label.Text, else placed by the stored text’s size (measured first)', () => {
    const centred = label('Value="5"');
    expect(centred.x + centred.width / 2).toBeCloseTo(label('Value="100"').x + label('Value="100"').width / 2, 6);
    const [x0] = origin(items('<SimpleProgressGauge Name="G"/>'), 'G');
    expect(centred.x + centred.width / 2).toBeCloseTo(x0 + 0.5 + (302.4 - 1) / 2, 2);
    // Stored "100%": "5%" starts where a centred "100%" would.
    expect(label('Value="5" Label.Text="100%"').x).toBeCloseTo(label('Value="100"').x, 6);
    expect(shownText(label('Value="5" Label.Text="100%"'))).toBe('5%');
  });
});

describe('GaugeObject and the AdvMatrix demo’s gauge', () => {
  it('a bare GaugeObject prints its fill and border only', () => {
    const all = items('<GaugeObject Name="B" Width="50" Height="20" Fill.Color="Red" Border.Lines="All"/>');
    expect(all.filter((i) => i.name.startsWith('B')).map((i) => i.kind)).toEqual(['box', 'box']);
  });

  it('reads the progress gauge of "AdvMatrix - Sparkline, Gauge" with no warning', () => {
    const el =
      '<SimpleProgressGauge Name="SimpleProgressGauge1" Width="113.4" Height="18.9" Dock="Fill" ' +
      'Border.Color="White" Maximum="1" Value="1" Scale.Font="Arial, 8pt" Pointer.Fill.Color="151, 189, 253" ' +
      'Pointer.Height="35.8" Pointer.Width="224.8" Label.Text="100%" Label.Font="Arial, 8pt"/>';
    const { report, warnings } = loadFrx(page(el));
    expect(warnings).toEqual([]);
    const g = report.pages[0]!.reportTitle!.objects[0] as GaugeObjectModel;
    expect(g).toMatchObject({ kind: 'SimpleProgressGauge', minimum: 0, maximum: 1, value: 1, dock: 'Fill', raw: {} });
    expect(g.border.lines).toEqual({ left: true, top: true, right: true, bottom: true });
    expect(g.pointer.fill).toMatchObject({ kind: 'Solid', color: { r: 151, g: 189, b: 253 } });
  });
});

/** The needle's direction, degrees from 12 o'clock clockwise: from its base's middle to its tip's. */
function needleAngle(p: PreparedPath): number {
  const [a, b, c, d] = points(p) as [[number, number], [number, number], [number, number], [number, number]];
  const base = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const tip = [(c[0] + d[0]) / 2, (c[1] + d[1]) / 2];
  return (Math.atan2(tip[0]! - base[0]!, -(tip[1]! - base[1]!)) * 180) / Math.PI;
}

describe('RadialGauge', () => {
  const radial = (attrs: string) => items(`<RadialGauge Name="R" ${attrs}/>`);

  it('turns the needle from −135° at Minimum through 0° at the middle to +135° at Maximum', () => {
    for (const [value, angle] of [
      [0, -135],
      [50, 0],
      [100, 135],
      [25, -67.5],
      [90, 108],
    ] as const) {
      expect(needleAngle(path(radial(`Value="${value}"`), 'R.pointer'))).toBeCloseTo(angle, 3);
    }
    expect(needleAngle(path(radial('Minimum="-40" Maximum="60" Value="-40"'), 'R.pointer'))).toBeCloseTo(-135, 3);
    expect(needleAngle(path(radial('Value="1000"'), 'R.pointer'))).toBeCloseTo(135, 3);
  });

  it('draws 11 major and 40 minor ticks with labels every tenth of the range, and the body outlined', () => {
    const all = radial('Value="10"');
    expect(count(all, 'R.tick.major.')).toBe(11);
    expect(count(all, 'R.tick.minor.')).toBe(40);
    expect(labels(all, 'R.label.')).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    // Labels away from the middle are rounded half to even; the middle one is as it is.
    // 0, 0.5 … 5: .5 goes to the even neighbour (Math.Round), the middle 2.5 is written as it is.
    expect(labels(radial('Minimum="0" Maximum="5"'), 'R.label.')).toEqual([
      '0',
      '0',
      '1',
      '2',
      '2',
      '2.5',
      '3',
      '4',
      '4',
      '4',
      '5',
    ]);
    // Border.Lines is None, yet the body's ellipse is outlined in the border's colour and width.
    const body = path(all, 'R.body');
    expect(body.closed).toBe(true);
    expect(body.lineWidth).toBe(1);
    expect(body.color).toMatchObject({ r: 0, g: 0, b: 0, a: 255 });
    expect(body.width).toBeCloseTo(151.2 - 1 - 1, 4);
    // The major ticks are W/12 long and point at the centre.
    const t = points(path(all, 'R.tick.major.5'));
    expect(t[1]![1] - t[0]![1]).toBeCloseTo(151.2 / 12, 4);
    expect(t[0]![0]).toBeCloseTo(t[1]![0], 6);
  });

  it('a Semicircle sweeps 180° with 5 major ticks, a Quadrant 90° with 3', () => {
    const semi = radial('Type="Semicircle" Value="0"');
    expect(count(semi, 'R.tick.major.')).toBe(5);
    expect(count(semi, 'R.tick.minor.')).toBe(12);
    expect(needleAngle(path(semi, 'R.pointer'))).toBeCloseTo(-90, 3);
    expect(needleAngle(path(radial('Type="Semicircle" Value="100"'), 'R.pointer'))).toBeCloseTo(90, 3);
    expect(needleAngle(path(radial('Type="Semicircle" Position="Bottom" Value="25"'), 'R.pointer'))).toBeCloseTo(
      -135,
      4,
    );
    const quad = radial('Type="Quadrant" Position="Top, Right" Value="0"');
    expect(count(quad, 'R.tick.major.')).toBe(3);
    expect(count(quad, 'R.tick.minor.')).toBe(6);
    expect(needleAngle(path(quad, 'R.pointer'))).toBeCloseTo(90, 3);
    expect(needleAngle(path(radial('Type="Quadrant" Position="Top, Right" Value="100"'), 'R.pointer'))).toBeCloseTo(
      0,
      3,
    );
    expect(labels(quad, 'R.label.')).toEqual(['100', '50', '0']);
    expect(needleAngle(path(radial('Type="Quadrant" Value="100"'), 'R.pointer'))).toBeCloseTo(0, 3);
  });

  it('prints Label.Text below the centre, mirrored from the top tick', () => {
    const all = radial('Label.Text="Speed"');
    expect(byName(all, 'R.label').map((i) => shownText(i as PreparedText))).toEqual(['Speed']);
  });
});

describe('fills', () => {
  it('paint the pointer with any fill; a radial needle turns a linear gradient with it', () => {
    const linear = path(
      items(
        '<LinearGauge Name="L" Pointer.Fill="LinearGradient" Pointer.Fill.StartColor="Red" ' +
          'Pointer.Fill.EndColor="Blue"/>',
      ),
      'L.pointer',
    );
    expect(linear.fill).toMatchObject({ kind: 'LinearGradient', startColor: { r: 255, g: 0, b: 0 } });
    const needle = path(
      items('<RadialGauge Name="R" Value="25" Pointer.Fill="LinearGradient" Pointer.Fill.Angle="10"/>'),
      'R.pointer',
    );
    // −135 + 0.25·270 = −67.5 → (int) −67 + 90 = 23.
    expect(needle.fill).toMatchObject({ kind: 'LinearGradient', angle: 23 });
    const fixed = path(
      items(
        '<RadialGauge Name="R" Value="25" Pointer.Fill="LinearGradient" Pointer.Fill.Angle="10" ' +
          'Pointer.GradientAutoRotate="false"/>',
      ),
      'R.pointer',
    );
    expect(fixed.fill).toMatchObject({ angle: 10 });
    const body = path(
      items('<RadialGauge Name="R" Fill.Color="Yellow" Border.Color="Red" Border.Width="3"/>'),
      'R.body',
    );
    expect(body).toMatchObject({
      fill: { kind: 'Solid', color: { r: 255, g: 255, b: 0 } },
      color: { r: 255, g: 0 },
      lineWidth: 3,
    });
  });
});

describe('an AdvMatrix cell’s gauge', () => {
  it('shows the cell’s value when it has no Expression', () => {
    const { report } = loadFrx(page('<SimpleProgressGauge Name="G" Maximum="1"/>'));
    const model = report.pages[0]!.reportTitle!.objects[0] as GaugeObjectModel;
    const rt = newRtObject(model);
    const e = { cellData: { value: 0.25, values: [] } } as unknown as EngineContext;
    gaugeObject.getData?.(e, model, rt);
    expect(rt.gaugeValue).toBe(0.25);
    gaugeObject.getData?.({ cellData: { value: 7, values: [] } } as unknown as EngineContext, model, rt);
    expect(rt.gaugeValue).toBe(1);
  });

  it('shows an empty cell at its minimum, not at the design value', () => {
    const { report } = loadFrx(page('<SimpleProgressGauge Name="G" Minimum="0.1" Maximum="1" Value="0.9"/>'));
    const model = report.pages[0]!.reportTitle!.objects[0] as GaugeObjectModel;
    const rt = newRtObject(model);
    gaugeObject.getData?.({ cellData: { value: null, values: [] } } as unknown as EngineContext, model, rt);
    expect(rt.gaugeValue).toBe(0.1);
  });
});

describe('hostile gauges', () => {
  it('give finite path data and no crash for huge, empty and degenerate gauges', () => {
    const cases = [
      '<LinearGauge Name="A" Width="10000000" Height="0.001" Expression="1.0/0"/>',
      '<SimpleGauge Name="B" Width="0" Height="0" Minimum="5" Maximum="5" Expression="0.0/0"/>',
      '<RadialGauge Name="C" Width="0" Minimum="1e7" Maximum="-1e7" Value="NaN"/>',
      '<RadialGauge Name="D" Height="10000000" Type="Quadrant" Position="Bottom, Right" Scale.Font="Arial, 9000pt"/>',
      '<SimpleProgressGauge Name="E" Width="1" Height="100000" Pointer.Type="Small" ' +
        'Pointer.SmallPointerWidthRatio="7"/>',
      '<RadialGauge Name="F" Type="Semicircle" Position="Left, Right" Width="-50"/>',
    ];
    for (const c of cases) {
      const all = items(c);
      expect(all.length).toBeGreaterThan(0);
      for (const i of all) {
        if (i.kind === 'path') expect(i.d, `${i.name}`).not.toMatch(/NaN|Infinity/);
        expect([i.x, i.y, i.width, i.height].every(Number.isFinite), i.name).toBe(true);
      }
    }
  });
});

describe('a gauge docked Fill in a table cell', () => {
  it('takes the cell’s box', () => {
    const all = items(
      '<TableObject Name="Tb" Left="20" Top="30" Width="200" Height="50"><TableColumn Name="C1" Width="200"/>' +
        '<TableRow Name="R1" Height="50"><TableCell Name="Cell1"><SimpleProgressGauge Name="G" Left="3" Top="4" ' +
        'Width="20" Height="10" Dock="Fill" Value="50"/></TableCell></TableRow></TableObject>',
    );
    const border = all.filter((i): i is PreparedBox => i.kind === 'box' && i.name === 'G');
    expect(border).toHaveLength(1);
    const cell = all.find((i) => i.name === 'Cell1');
    expect(border[0]).toMatchObject({ x: cell?.x, y: cell?.y, width: 200, height: 50 });
  });
});

describe.runIf(POPPLER_AVAILABLE)('a gauge in the PDF', () => {
  it('paints the needle orange along its axis and nothing beside it', async () => {
    const xml = page('<RadialGauge Name="R" Left="100" Top="100" Width="200" Height="200" Value="50"/>');
    const r = await renderReport({ template: Buffer.from(xml), data: {}, format: 'pdf' });
    const needle = r.prepared.pages[0]!.items.find(
      (i): i is PreparedPath => i.kind === 'path' && i.name === 'R.pointer',
    );
    if (!needle) throw new Error('no needle');
    const [a, b, c, d] = points(needle) as [[number, number], [number, number], [number, number], [number, number]];
    const mid: [number, number] = [(a[0] + b[0] + c[0] + d[0]) / 4, (a[1] + b[1] + c[1] + d[1]) / 4];
    const img = rasterizeRgb(r.output as Buffer, 1, 96);
    const rgb = (x: number, y: number) => {
      const o = (Math.round(y) * img.width + Math.round(x)) * 3;
      return [img.data[o], img.data[o + 1], img.data[o + 2]];
    };
    // Orange (255, 165, 0) on the axis; white 6 px to its right.
    const [red, green, blue] = rgb(mid[0], mid[1]) as [number, number, number];
    expect(red).toBeGreaterThan(230);
    expect(green).toBeGreaterThan(130);
    expect(green).toBeLessThan(200);
    expect(blue).toBeLessThan(60);
    expect(rgb(mid[0] + 6, mid[1])).toEqual([255, 255, 255]);
  });
});

const DEMO = 'Reports/Gauge.frx';
describe('the Gauge demo', () => {
  const quantities = nwindRows('Order_x0020_Details')
    .slice(0, 8)
    .map((r) => Number(r.Quantity));

  it('prints 8 pages with no warning, each gauge at the row’s Quantity', () => {
    const r = runTemplate(demoFile(DEMO), { datasets: { NorthWind: nwindDataSet() } });
    expect(r.warnings).toEqual([]);
    expect(r.prepared.pages).toHaveLength(8);
    expect(quantities.every(Number.isFinite)).toBe(true);
    r.prepared.pages.forEach((pg, i) => {
      const q = Math.min(100, quantities[i]!);
      const all = pg.items;
      expect(all.some((it) => it.kind === 'box' && it.unsupported)).toBe(false);
      const [lx] = origin(all, 'LinearGauge1');
      expect(points(path(all, 'LinearGauge1.pointer'))[0]![0]).toBeCloseTo(lx + 0.5 * CM + (302.4 - CM) * (q / 100), 2);
      const [sx] = origin(all, 'SimpleGauge1');
      const s = points(path(all, 'SimpleGauge1.pointer'));
      expect(s[1]![0] - s[0]![0]).toBeCloseTo((302.4 - 1 - CM) * (q / 100), 2);
      expect(s[0]![0]).toBeCloseTo(sx + 0.5 + 0.5 * CM, 2);
      const bar = points(path(all, 'SimpleProgressGauge1.pointer'));
      expect(bar[1]![0] - bar[0]![0]).toBeCloseTo((302.4 - 1) * (q / 100), 2);
      const pct = all.find((it): it is PreparedText => it.kind === 'text' && it.name === 'SimpleProgressGauge2.label');
      expect(pct && shownText(pct)).toBe(`${q}%`);
      for (const g of ['RadialGauge1', 'RadialGauge2'])
        expect(needleAngle(path(all, `${g}.pointer`))).toBeCloseTo(-135 + 270 * (q / 100), 3);
    });
  });

  it('draws the gauges in HTML (SVG paths) and PDF', async () => {
    const data = { datasetXml: (await import('./helpers.js')).NWIND_TEXT };
    const html = await renderReport({
      template: demoFile(DEMO),
      data,
      format: 'html',
      maxPages: 1,
      truncatePages: true,
    });
    const text = String(html.output);
    expect(text).toContain('<path');
    expect((text.match(/<path/g) ?? []).length).toBeGreaterThan(100);
    expect(text).toContain('Quantity');
    expect(text).toContain('12%');
    const pdf = await renderReport({ template: demoFile(DEMO), data, format: 'pdf' });
    expect(pdf.warnings).toEqual([]);
    expect((pdf.output as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
