// The report's band structure, worked out once per run: bands by name, each band's parent band
// (null at page level), a ChildBand's owner, and a DataBand's nearest DataBand above it (for
// master-detail relations).

import { allBands } from '../frx/load.js';
import type { BandModel, DataBandModel, GroupHeaderBandModel, ReportModel } from '../frx/model.js';

export class ReportStructure {
  private readonly bandsByName = new Map<string, BandModel>();
  readonly bandParent = new Map<BandModel, BandModel | null>();
  readonly childParents = new Map<BandModel, BandModel>();
  readonly parentDataBand = new Map<DataBandModel, DataBandModel | null>();

  constructor(report: ReportModel) {
    for (const p of report.pages) {
      for (const b of allBands(p)) if (!this.bandsByName.has(b.name)) this.bandsByName.set(b.name, b);
      for (const b of [
        p.reportTitle,
        p.pageHeader,
        p.columnHeader,
        p.reportSummary,
        p.columnFooter,
        p.pageFooter,
        p.overlay,
      ])
        if (b) this.link(b, null, null);
      for (const b of p.bands) this.link(b, null, null);
    }
    this.linkSubreports(report);
  }

  /** A subreport page's data bands are details of the data band that prints the subreport (the
   *  band holding it, or the nearest data band above that band). */
  private linkSubreports(report: ReportModel): void {
    const holders = new Map<string, BandModel>();
    for (const p of report.pages)
      for (const b of allBands(p)) for (const o of b.objects) if (o.type === 'SubreportObject') holders.set(o.name, b);
    for (const p of report.pages) {
      if (p.subreportOf === '') continue;
      let holder: BandModel | null | undefined = holders.get(p.subreportOf);
      while (holder && holder.type !== 'DataBand') holder = this.bandParent.get(holder);
      if (holder) for (const b of p.bands) this.link(b, null, holder);
    }
  }

  bandByName(name: string): BandModel | undefined {
    return this.bandsByName.get(name);
  }

  private link(band: BandModel, parent: BandModel | null, dataParent: DataBandModel | null): void {
    this.bandParent.set(band, parent);
    const owner = band.type === 'ChildBand' && parent ? (this.childParents.get(parent) ?? parent) : band;
    if (band.child) {
      this.childParents.set(band.child, owner);
      this.link(band.child, band, dataParent);
    }
    if (band.type === 'DataBand') {
      this.parentDataBand.set(band, dataParent);
      for (const h of [band.header, band.footer]) if (h) this.link(h, band, dataParent);
      for (const b of band.bands) this.link(b, band, band);
    } else if (band.type === 'GroupHeaderBand') {
      const g: GroupHeaderBandModel = band;
      for (const b of [g.nestedGroup, g.data, g.groupFooter, g.header, g.footer]) if (b) this.link(b, g, dataParent);
    }
  }
}
