// A map layer's analytical values (FastReport's MapLayer.GetData, AddValue, FinalizeData): for
// each row of the layer's data source that passes its Filter, the SpatialValue expression names
// a shape (matched to the layer's SpatialColumn) and the AnalyticalValue expression gives a
// number, aggregated per shape by the layer's Function. The data source's position is restored
// afterwards (the map may print inside a band of the same source).

import { asDouble, isNumeric } from '../expr/numeric-kinds.js';
import type { MapLayerModel, MapObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { cursorRestorer, filteredSourceRows } from './datasource.js';

export interface LayerValues {
  /** Aggregated value by spatial value (the key the shapes are matched on). */
  values: Map<string, number>;
  min: number;
  max: number;
}

/** The value a .NET Convert.ToDouble would give, or undefined for null / not a number. */
function toDouble(v: unknown): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (isNumeric(v as never)) return asDouble(v as never);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Aggregates a layer's data; undefined when the layer is not bound to data. */
export function layerValues(e: EngineContext, map: MapObjectModel, layer: MapLayerModel): LayerValues | undefined {
  if (layer.dataSource === '' || layer.spatialValue.trim() === '' || layer.analyticalValue.trim() === '')
    return undefined;
  const where = `${map.name}.${layer.name}`;
  if (layer.spatialSource === 'ApplicationData') {
    e.warnings.add(`${where}: SpatialSource ApplicationData (points from latitude/longitude data) is not drawn`);
    return undefined;
  }
  const cursor = e.data.findSource(layer.dataSource);
  if (!cursor) {
    e.warnings.add(`${where}: data source "${layer.dataSource}" is not in the dictionary; the layer has no data`);
    return undefined;
  }
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  const restoreCursor = cursorRestorer(cursor);
  try {
    const rows = filteredSourceRows(e, cursor, layer, layer.filter, `${where}.Filter`);
    for (let i = 0; i < rows.length && !e.limits.aborted; i++) {
      e.limits.visitRow();
      cursor.position = i;
      const key = e.exprs.calc(layer, 'spatial', layer.spatialValue, `${where}.SpatialValue`).value;
      const value = toDouble(
        e.exprs.calc(layer, 'analytical', layer.analyticalValue, `${where}.AnalyticalValue`).value,
      );
      if (key === null || key === undefined || value === undefined) continue;
      add(sums, counts, e.scope.formatter.format(key, ''), value, layer.function);
    }
  } finally {
    restoreCursor();
  }
  let min = 1e10;
  let max = -1e10;
  for (const [key, v] of sums) {
    const value = layer.function === 'Avg' ? v / (counts.get(key) ?? 1) : v;
    sums.set(key, value);
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { values: sums, min, max };
}

function add(
  sums: Map<string, number>,
  counts: Map<string, number>,
  key: string,
  value: number,
  fn: MapLayerModel['function'],
): void {
  const old = sums.get(key);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  if (old === undefined) {
    sums.set(key, fn === 'Count' ? 1 : value);
    return;
  }
  switch (fn) {
    case 'Sum':
    case 'Avg':
      sums.set(key, old + value);
      break;
    case 'Max':
      if (value > old) sums.set(key, value);
      break;
    case 'Min':
      if (value < old) sums.set(key, value);
      break;
    case 'Count':
      sums.set(key, old + 1);
      break;
  }
}
