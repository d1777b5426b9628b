// Report objects and bands as a script sees them (`Text1.Text`, `Data1.Visible`, `Shape1.Fill =
// new SolidFill(c)`): a proxy per object that reads and writes the object's live state
// (live.ts). Only the properties listed here exist for scripts; anything else is a clear error.

import { solidFill } from '../../frx/defaults.js';
import type { BandModel, FillModel, ReportObjectModel } from '../../frx/model.js';
import { fromResolved } from '../../expr/scope-values.js';
import { ValueError } from '../../expr/value-error.js';
import { Flt, type Value } from '../../expr/values.js';
import { ScriptObject } from '../../script/collections.js';
import type { FontSpec } from '../../text/index.js';
import type { LiveObjects } from './live.js';
import { bool, BorderValue, ColorValue, colorOf, FillValue, FontValue, num } from './values.js';

type Model = ReportObjectModel | BandModel;

interface Property {
  /** The model's key. */
  key: string;
  get(v: unknown): Value;
  set?(v: Value, name: string): unknown;
}

const text: Property = { key: 'text', get: (v) => String(v ?? ''), set: (v) => (v === null ? '' : String(v)) };
const float = (key: string): Property => ({ key, get: (v) => new Flt(Number(v)), set: (v, n) => num(v, n) });
const flag = (key: string): Property => ({ key, get: (v) => v === true, set: (v, n) => bool(v, n) });
const word = (key: string): Property => ({ key, get: (v) => String(v), set: (v) => String(v) });
const plain = (key: string): Property => ({ key, get: (v) => (v as string) ?? '', set: (v) => String(v ?? '') });

/** Script property → model property. */
const PROPERTIES: ReadonlyMap<string, Property> = new Map<string, Property>([
  ['Text', text],
  ['Visible', flag('visible')],
  ['Left', float('left')],
  ['Top', float('top')],
  ['Width', float('width')],
  ['Height', float('height')],
  ['CanGrow', flag('canGrow')],
  ['CanShrink', flag('canShrink')],
  ['GrowToBottom', flag('growToBottom')],
  ['Printable', flag('printable')],
  ['Exportable', flag('exportable')],
  ['RightToLeft', flag('rightToLeft')],
  ['WordWrap', flag('wordWrap')],
  ['AllowExpressions', flag('allowExpressions')],
  ['AutoWidth', flag('autoWidth')],
  ['Checked', flag('checked')],
  ['StartNewPage', flag('startNewPage')],
  ['PrintOnBottom', flag('printOnBottom')],
  ['KeepTogether', flag('keepTogether')],
  ['RepeatOnEveryPage', flag('repeatOnEveryPage')],
  ['HorzAlign', word('horzAlign')],
  ['VertAlign', word('vertAlign')],
  ['Angle', { key: 'angle', get: (v) => Number(v), set: (v, n) => num(v, n) }],
  ['Bookmark', plain('bookmark')],
  ['Tag', plain('tag')],
  ['Cursor', plain('cursor')],
  ['Style', plain('style')],
]);

/** A report object or band of the template, reached by its name. */
export class ObjectProxy extends ScriptObject {
  protected readonly label: string;
  readonly typeName: string;

  constructor(
    readonly model: Model,
    protected readonly live: LiveObjects,
  ) {
    super();
    this.label = model.type;
    this.typeName = `FastReport.${model.type}`;
  }

  private has(key: string): boolean {
    return key in this.model;
  }

  private read(key: string): unknown {
    const printed = this.live.printed(this.model) as unknown as Record<string, unknown> | undefined;
    if (printed && key in printed && printed[key] !== undefined) return printed[key];
    return this.live.read(this.model, key);
  }

  member(name: string): Value {
    const p = PROPERTIES.get(name);
    if (p && this.has(p.key)) return p.get(this.read(p.key));
    switch (name) {
      case 'Name':
        return this.model.name;
      case 'Value': {
        const v = this.live.printed(this.model)?.value;
        return v ? fromResolved(v) : null;
      }
      case 'Fill':
        return new FillValue(this.read('fill') as FillModel, (f) => this.live.write(this.model, 'fill', f));
      case 'Border':
        return new BorderValue(structuredClone(this.read('border')) as never, (b) =>
          this.live.write(this.model, 'border', b),
        );
      case 'Hyperlink':
        if (this.has('hyperlink')) return new HyperlinkValue(this.model as ReportObjectModel, this.live);
        break;
    }
    if (this.has('textFill')) {
      if (name === 'TextColor') {
        const f = this.read('textFill') as FillModel;
        return new ColorValue('color' in f ? f.color : { r: 0, g: 0, b: 0, a: 255 });
      }
      if (name === 'TextFill')
        return new FillValue(this.read('textFill') as FillModel, (f) => this.live.write(this.model, 'textFill', f));
      if (name === 'Font') return new FontValue(this.read('font') as FontSpec);
    }
    throw new ValueError(
      'MissingMemberException',
      `'${this.model.name}' (${this.model.type}) has no property '${name}'`,
    );
  }

  override setMember(name: string, v: Value): void {
    const p = PROPERTIES.get(name);
    if (p?.set && this.has(p.key)) {
      this.live.write(this.model, p.key, p.set(v, `${this.model.name}.${name}`));
      return;
    }
    const where = `${this.model.name}.${name}`;
    switch (name) {
      case 'Fill':
        if (!(v instanceof FillValue)) throw new ValueError('InvalidCastException', `${where} takes a fill`);
        this.live.write(this.model, 'fill', v.fill);
        return;
      case 'Border':
        if (!(v instanceof BorderValue)) throw new ValueError('InvalidCastException', `${where} takes a Border`);
        this.live.write(this.model, 'border', v.border);
        return;
    }
    if (this.has('textFill')) {
      if (name === 'TextColor') {
        this.live.write(this.model, 'textFill', solidFill(colorOf(v, where)));
        return;
      }
      if (name === 'TextFill' && v instanceof FillValue) {
        this.live.write(this.model, 'textFill', v.fill);
        return;
      }
      if (name === 'Font') {
        if (!(v instanceof FontValue)) throw new ValueError('InvalidCastException', `${where} takes a Font`);
        this.live.write(this.model, 'font', { ...v.font });
        return;
      }
    }
    throw new ValueError(
      'MissingMemberException',
      `'${this.model.name}' (${this.model.type}) has no settable property '${name}'`,
    );
  }

  call(name: string, args: readonly Value[]): Value {
    if (name === 'ToString') return this.typeName;
    if (name === 'GetType') throw new ValueError('InvalidOperationException', 'GetType is not available to scripts');
    throw new ValueError(
      'MissingMethodException',
      `'${this.model.name}' (${this.model.type}) has no method '${name}' taking ${args.length} arguments`,
    );
  }
}

/** An object's Hyperlink (`Text1.Hyperlink.Value`). */
class HyperlinkValue extends ScriptObject {
  readonly typeName = 'FastReport.Hyperlink';
  protected readonly label = 'Hyperlink';
  constructor(
    private readonly model: ReportObjectModel,
    private readonly live: LiveObjects,
  ) {
    super();
  }
  private get link(): ReportObjectModel['hyperlink'] {
    return this.live.read(this.model, 'hyperlink') as ReportObjectModel['hyperlink'];
  }
  member(name: string): Value {
    const h = this.link;
    switch (name) {
      case 'Value': {
        const printed = this.live.printed(this.model)?.hyperlink;
        return printed ? printed.target : h.value;
      }
      case 'Expression':
        return h.expression;
      case 'Kind':
        return h.kind;
      case 'OpenLinkInNewTab':
        return h.openLinkInNewTab;
    }
    throw new ValueError('MissingMemberException', `'Hyperlink' has no property '${name}'`);
  }
  override setMember(name: string, v: Value): void {
    const h = { ...this.link };
    if (name === 'Value') h.value = v === null ? '' : String(v);
    else if (name === 'Expression') h.expression = v === null ? '' : String(v);
    else if (name === 'Kind') h.kind = String(v) as typeof h.kind;
    else if (name === 'OpenLinkInNewTab') h.openLinkInNewTab = bool(v, 'Hyperlink.OpenLinkInNewTab');
    else throw new ValueError('MissingMemberException', `'Hyperlink' has no settable property '${name}'`);
    this.live.write(this.model, 'hyperlink', h);
  }
  call(name: string): Value {
    throw new ValueError('MissingMethodException', `'Hyperlink' has no method '${name}'`);
  }
}
