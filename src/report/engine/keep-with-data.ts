// Keep with data (FastReport's ReportEngine.KeepWithData): a data band's last row stays on the
// page of the footers that have KeepWithData (its own, its groups', the report summary's), and
// its first row with a header that has it.

import type { BandModel, DataBandModel, HeaderFooterBandModel } from '../frx/model.js';
import { bandHeightWithChildren, freeSpace } from './bands.js';
import type { EngineContext } from './context.js';
import { endKeep } from './keep.js';
import { endColumn } from './pages.js';

/** The footers that must stay with the band's last row (KeepWithData), innermost first. */
function allFooters(e: EngineContext, band: DataBandModel): HeaderFooterBandModel[] {
  const chain: BandModel[] = [];
  for (let b: BandModel | null | undefined = band; b; b = e.structure.bandParent.get(b)) chain.push(b);
  const summary = e.cursor.page.reportSummary;
  if (e.bands.rt(band).keepSummary && summary) chain.push(summary);
  const footers: HeaderFooterBandModel[] = [];
  for (const b of chain) {
    const f =
      b.type === 'DataBand'
        ? b.footer
        : b.type === 'GroupHeaderBand'
          ? b.groupFooter
          : b.type === 'ReportSummaryBand'
            ? b
            : null;
    if (f) footers.push(f);
    if (b !== band && !e.bands.rt(b).isLastRow) break;
  }
  while (footers.length > 0 && !(footers[footers.length - 1] as HeaderFooterBandModel).keepWithData) footers.pop();
  return footers;
}

export function needKeepFirstRow(band: DataBandModel): boolean {
  return band.header !== null && band.header.keepWithData;
}

export function needKeepLastRow(e: EngineContext, band: DataBandModel): boolean {
  return allFooters(e, band).length > 0;
}

export function footersHeight(e: EngineContext, band: DataBandModel): number {
  let h = 0;
  for (const f of allFooters(e, band)) if (!f.repeatOnEveryPage) h += bandHeightWithChildren(e, f);
  return h;
}

export function checkKeepFooter(e: EngineContext, band: DataBandModel): void {
  if (freeSpace(e) < footersHeight(e, band)) endColumn(e);
  else endKeep(e);
}
