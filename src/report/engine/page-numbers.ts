// Logical page numbers (FastReport's ReportEngine.PageNumbers): Page and TotalPages count the
// pages since the last ResetPageNumber; the first pass records them per physical page, the
// final pass of a two-pass report reads them back.

export interface PageNumberInfo {
  pageNo: number;
  totalPages: number;
}

export class PageNumbering {
  /** Per physical page from the first report page on. */
  readonly pages: PageNumberInfo[] = [];
  logicalPageNo = 0;
  /** The physical index of the first page of the report. */
  firstReportPage = 0;
  isFirstReportPage = true;

  /** A page starts (`curPage`: its physical index). */
  inc(curPage: number, firstPass: boolean): void {
    this.logicalPageNo++;
    const index = curPage - this.firstReportPage;
    if (firstPass || index >= this.pages.length) {
      this.pages[index] = { pageNo: this.logicalPageNo, totalPages: 0 };
    }
  }

  /** Ends a run of logical page numbers: the pages since the last reset learn their total. */
  reset(firstPass: boolean): void {
    if (!firstPass) return;
    for (let i = this.pages.length - 1; i >= 0; i--) {
      const info = this.pages[i];
      if (!info) continue;
      info.totalPages = this.logicalPageNo;
      if (info.pageNo === 1) break;
    }
    this.logicalPageNo = 0;
  }

  /** Page (logical, from the report's InitialPageNumber) of the physical page `curPage`. */
  pageNo(curPage: number, initialPageNumber: number): number {
    const info = this.pages[curPage - this.firstReportPage];
    return (info?.pageNo ?? this.logicalPageNo) + initialPageNumber - 1;
  }

  totalPages(curPage: number, initialPageNumber: number): number {
    const info = this.pages[curPage - this.firstReportPage];
    return (info?.totalPages ?? 0) + initialPageNumber - 1;
  }

  /** Before a second pass: the numbers recorded stay, the count starts over. */
  restart(): void {
    this.logicalPageNo = 0;
    this.isFirstReportPage = true;
  }
}

/** What numbering pages reads. */
export interface PageNumberHost {
  readonly numbering: PageNumbering;
  readonly cursor: { readonly curPage: number };
  readonly passes: { readonly firstPass: boolean };
}

export function incLogicalPageNumber(e: PageNumberHost): void {
  e.numbering.inc(e.cursor.curPage, e.passes.firstPass);
}

/** Ends a run of logical page numbers (ResetPageNumber, a report page's end). */
export function resetLogicalPageNumber(e: PageNumberHost): void {
  e.numbering.reset(e.passes.firstPass);
}
