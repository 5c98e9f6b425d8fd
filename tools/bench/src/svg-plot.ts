/** One line of a plot: a name and (x, y) points. */
export interface PlotSeries {
  name: string;
  points: ReadonlyArray<readonly [number, number]>;
}

/** Options of {@link lineChartSvg}. */
export interface PlotOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
  /** Log-scale axes (values must be > 0). Default: x log, y log. */
  logX?: boolean;
  logY?: boolean;
}

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

const escXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function niceTicks(lo: number, hi: number, log: boolean): number[] {
  if (log) {
    const ticks: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v);
      }
    }
    return ticks.length >= 2 ? ticks : [lo, hi];
  }
  const span = hi - lo || 1;
  const step = 10 ** Math.floor(Math.log10(span / 4));
  const mult = [1, 2, 5, 10].find((m) => span / (m * step) <= 6) ?? 10;
  const s = mult * step;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / s) * s; v <= hi + 1e-9; v += s) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

const label = (v: number): string => (v >= 1000 ? `${Number((v / 1000).toPrecision(3))}k` : String(Number(v.toPrecision(3))));

/**
 * A self-contained SVG line chart (axes, ticks, one coloured polyline with markers per series, legend).
 * @throws RangeError when there is no point, or a log axis gets a value ≤ 0.
 */
export function lineChartSvg(series: readonly PlotSeries[], options: PlotOptions): string {
  const width = options.width ?? 640;
  const height = options.height ?? 400;
  const logX = options.logX ?? true;
  const logY = options.logY ?? true;
  const pts = series.flatMap((s) => s.points);
  if (pts.length === 0) throw new RangeError("nothing to plot");
  for (const [x, y] of pts) {
    if ((logX && !(x > 0)) || (logY && !(y > 0))) throw new RangeError(`log axis needs positive values, got (${x}, ${y})`);
  }
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (logX) [x0, x1] = [x0 / 1.5, x1 * 1.5];
  else if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  if (logY) [y0, y1] = [y0 / 2, y1 * 2];
  else [y0, y1] = [Math.min(0, y0), y1 * 1.1 || 1];
  const m = { l: 64, r: 170, t: 36, b: 48 };
  const pw = width - m.l - m.r;
  const ph = height - m.t - m.b;
  const tx = (v: number): number => (logX ? Math.log10(v / x0) / Math.log10(x1 / x0) : (v - x0) / (x1 - x0));
  const ty = (v: number): number => (logY ? Math.log10(v / y0) / Math.log10(y1 / y0) : (v - y0) / (y1 - y0));
  const X = (v: number): string => (m.l + tx(v) * pw).toFixed(1);
  const Y = (v: number): string => (m.t + ph - ty(v) * ph).toFixed(1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  out.push(`<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escXml(options.title)}</text>`);
  for (const t of niceTicks(y0, y1, logY)) {
    out.push(`<line x1="${m.l}" x2="${m.l + pw}" y1="${Y(t)}" y2="${Y(t)}" stroke="#ddd"/>`);
    out.push(`<text x="${m.l - 6}" y="${Y(t)}" text-anchor="end" dominant-baseline="middle">${label(t)}</text>`);
  }
  for (const t of niceTicks(x0, x1, logX)) {
    out.push(`<line x1="${X(t)}" x2="${X(t)}" y1="${m.t}" y2="${m.t + ph}" stroke="#eee"/>`);
    out.push(`<text x="${X(t)}" y="${m.t + ph + 16}" text-anchor="middle">${label(t)}</text>`);
  }
  out.push(`<rect x="${m.l}" y="${m.t}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${m.l + pw / 2}" y="${height - 10}" text-anchor="middle">${escXml(options.xLabel)}</text>`);
  out.push(`<text x="16" y="${m.t + ph / 2}" text-anchor="middle" transform="rotate(-90 16 ${m.t + ph / 2})">${escXml(options.yLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length];
    const sorted = [...s.points].sort((a, b) => a[0] - b[0]);
    out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${sorted.map(([x, y]) => `${X(x)},${Y(y)}`).join(" ")}"/>`);
    for (const [x, y] of sorted) out.push(`<circle cx="${X(x)}" cy="${Y(y)}" r="3.5" fill="${c}"><title>${escXml(s.name)}: ${label(x)} → ${Number(y.toPrecision(3))}</title></circle>`);
    const ly = m.t + 10 + i * 18;
    out.push(`<line x1="${m.l + pw + 12}" x2="${m.l + pw + 32}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"/>`);
    out.push(`<text x="${m.l + pw + 38}" y="${ly}" dominant-baseline="middle">${escXml(s.name)}</text>`);
  });
  out.push(`</svg>`);
  return out.join("\n") + "\n";
}
