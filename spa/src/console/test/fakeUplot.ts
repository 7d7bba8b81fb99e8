import type uPlot from "uplot";

/** uPlot in jsdom (no canvas): keeps the options and the latest data for tests to read. */
export default class FakeUplot {
  static made: FakeUplot[] = [];
  data: uPlot.AlignedData = [];
  destroyed = false;

  constructor(
    readonly options: uPlot.Options,
    data: uPlot.AlignedData,
    readonly target: HTMLElement,
  ) {
    this.data = data;
    FakeUplot.made.push(this);
  }

  setData(data: uPlot.AlignedData) {
    this.data = data;
  }

  setSize() {}

  destroy() {
    this.destroyed = true;
  }
}
