export { percentile, summarize, median, type LatencySummary } from "./stats.js";
export { markdownTable, fmt, verdict, type Align } from "./markdown.js";
export { lineChartSvg, type PlotSeries, type PlotOptions } from "./svg-plot.js";
export { machineInfo, type MachineInfo } from "./machine.js";
