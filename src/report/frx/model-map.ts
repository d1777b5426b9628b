// The typed report model, the parts of a MapObject (FastReport.Map; the object itself is in
// model-objects.ts): layers of shapes over a longitude/latitude
// box, coloured by palette or by an analytical value's colour range, with a colour scale legend.

import type { Color } from './colors.js';
import type { FontSpec } from '../text/font-spec.js';
import type { BorderModel, FillModel } from './model-appearance.js';

export interface MapBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface MapShape {
  kind: 'polygon' | 'polyline' | 'point';
  /** Each part's points as x,y pairs (longitude, latitude in degrees); a point has one part of
   *  one point. */
  parts: Float64Array[];
  box: MapBox;
  /** The shape's attribute values by column name (its .dbf row / SpatialData). */
  data: ReadonlyMap<string, string>;
}

export interface MapShapeStyleModel {
  borderColor: Color;
  borderWidth: number;
  borderStyle: 'Solid' | 'Dash' | 'Dot' | 'DashDot' | 'DashDotDot';
  fillColor: Color;
  font: FontSpec;
  textColor: Color;
  pointSize: number;
}

export interface MapColorRangeModel {
  /** null: transparent, filled in from the start/middle/end colours. */
  color: Color | null;
  /** NaN: filled in from the data. */
  start: number;
  end: number;
}

export interface MapLayerModel {
  name: string;
  line: number;
  /** The shapefile as the template names it ('' when the shapes are embedded). */
  shapefile: string;
  type: 'Point' | 'Line' | 'Polygon';
  spatialSource: 'ShpFile' | 'ApplicationData';
  dataSource: string;
  filter: string;
  spatialColumn: string;
  spatialValue: string;
  analyticalValue: string;
  labelColumn: string;
  labelKind: 'None' | 'Name' | 'Value' | 'NameAndValue';
  labelFormat: string;
  /** px: a vertex closer than this to the previous one is not drawn. */
  accuracy: number;
  labelsVisibleAtZoom: number;
  function: 'Sum' | 'Min' | 'Max' | 'Avg' | 'Count';
  visible: boolean;
  /** The layer's box (BoxAsString); null when the template has none (the shapes' box then). */
  box: MapBox | null;
  style: MapShapeStyleModel;
  palette: string;
  colorRanges: {
    startColor: Color;
    middleColor: Color;
    endColor: Color;
    showInColorScale: boolean;
    ranges: MapColorRangeModel[];
  };
  /** The shapes: embedded in the template, or read from the shapefile when the template loads. */
  shapes: MapShape[];
  raw: Record<string, string>;
}

export interface MapColorScaleModel {
  visible: boolean;
  dock:
    | 'TopLeft'
    | 'TopCenter'
    | 'TopRight'
    | 'MiddleLeft'
    | 'MiddleRight'
    | 'BottomLeft'
    | 'BottomCenter'
    | 'BottomRight';
  titleText: string;
  titleFont: FontSpec;
  titleColor: Color;
  font: FontSpec;
  textColor: Color;
  borderColor: Color;
  fill: FillModel;
  border: BorderModel;
  format: string;
  hideIfNoData: boolean;
  noDataText: string;
}
