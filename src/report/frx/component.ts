// The properties every report component has (FastReport's ReportComponentBase), for objects and
// bands alike.

import { parseBorder, parseFill, parseHyperlink } from './appearance.js';
import { defaultFill } from './defaults.js';
import { PRINT_ON_FLAGS, type ComponentModel } from './model.js';
import type { Attrs } from './values.js';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The ReportComponentBase properties; `raw` is filled by the caller once all reads are done. */
export function readComponent(a: Attrs, isBand = false): ComponentModel {
  return {
    name: a.str('Name'),
    line: a.line,
    // FastReport rounds bounds to two decimals when it sets them.
    left: round2(a.float('Left', 0)),
    top: round2(a.float('Top', 0)),
    width: round2(a.float('Width', 0)),
    height: round2(a.float('Height', 0)),
    visible: a.bool('Visible', true),
    visibleExpression: a.str('VisibleExpression'),
    printable: a.bool('Printable', true),
    printableExpression: a.str('PrintableExpression'),
    exportable: a.bool('Exportable', true),
    exportableExpression: a.str('ExportableExpression'),
    anchor: a.flags('Anchor', ['Top', 'Bottom', 'Left', 'Right'] as const, [1, 2, 4, 8], ['Top', 'Left']),
    dock: a.enumOf('Dock', ['None', 'Top', 'Bottom', 'Left', 'Right', 'Fill'] as const, 'None'),
    border: parseBorder(a),
    fill: parseFill(a, 'Fill', defaultFill()),
    canGrow: a.bool('CanGrow', false),
    canShrink: a.bool('CanShrink', false),
    growToBottom: a.bool('GrowToBottom', false),
    // BandBase's constructor sets ShiftMode.Never; other components default to Always.
    shiftMode: a.enumOf('ShiftMode', ['Never', 'Always', 'WhenOverlapped'] as const, isBand ? 'Never' : 'Always'),
    style: a.str('Style'),
    evenStyle: a.str('EvenStyle'),
    evenStylePriority: a.enumOf('EvenStylePriority', ['UseFill', 'UseAll'] as const, 'UseFill'),
    hoverStyle: a.str('HoverStyle'),
    printOn: a.flags('PrintOn', PRINT_ON_FLAGS, [1, 2, 4, 8, 16, 32], PRINT_ON_FLAGS),
    bookmark: a.str('Bookmark'),
    hyperlink: parseHyperlink(a),
    cursor: a.str('Cursor', 'Default'),
    tag: a.str('Tag'),
    events: a.events(),
    raw: {},
  };
}
