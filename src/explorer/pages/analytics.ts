import { get } from '../api.js';
import { h, page, table } from '../dom.js';
import { labelOf, plotted, unitOf, valueText } from '../measurements.js';
import { type Info, latestInfo } from '../network.js';

// Analytics over a range of milestones, as a chart (uPlot: 23 KB gzipped, against Chart.js's 50 KB for a line
// chart alone, both measured bundled and minified; loaded only by this page) with its numbers in a table beside it,
// each in its unit (token amounts in the network's, on the chart too). The page names the measurement as the API does
// (`analytics.…`), the name to ask the range route for.

interface Range {
  milestones: { milestoneIndex: number; measurements: Record<string, number | string> }[];
}
const DEFAULT_NAME = 'analytics.block_activity.confirmed_count';
const DEFAULT_SPAN = 100;

/** `#/analytics/{name}/{from}/{to}`: a measurement over milestones `from` to `to` (defaults: the latest 100). */
export async function analyticsPage(args: string[]): Promise<HTMLElement | undefined> {
  const info = await latestInfo();
  const latest = info.status.latestMilestone.index;
  const [name = DEFAULT_NAME, fromText, toText] = args;
  const to = toText === undefined ? latest : Number(toText);
  const from = fromText === undefined ? Math.max(0, to - DEFAULT_SPAN + 1) : Number(fromText);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to) return undefined;
  const names = Object.keys(
    (await get<{ measurements: object }>(`/api/analytics/v1/milestones/${latest}`)).measurements,
  );
  const range = await get<Range>(`/api/analytics/v1/milestones?from=${from}&to=${to}&names=${name}`);
  const values = range.milestones.map((m) => [m.milestoneIndex, m.measurements[name]] as const);
  const points = values.map(([i, v]) => [i, v === undefined ? Number.NaN : plotted(name, v, info.baseToken)] as const);
  const label = `${labelOf(name)}${unitName(name, info)}`;
  const chart = h('figure', { class: 'chart', 'aria-label': `${label}, milestones ${from} to ${to}` });
  const form = h(
    'form',
    { class: 'range' },
    h('label', { for: 'name' }, 'Measurement'),
    h('select', { id: 'name' }, ...names.map((n) => h('option', n === name ? { selected: '' } : {}, n))),
    h('label', { for: 'from' }, 'from'),
    h('input', { id: 'from', type: 'number', min: '0', value: String(from) }),
    h('label', { for: 'to' }, 'to'),
    h('input', { id: 'to', type: 'number', min: '0', value: String(to) }),
    h('button', { type: 'submit' }, 'Show'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = (id: string) => (form.querySelector(`#${id}`) as HTMLInputElement).value;
    location.hash = `#/analytics/${value('name')}/${value('from')}/${value('to')}`;
  });
  const shown = page(
    `Analytics: ${labelOf(name)}`,
    h('p', {}, 'Measurement ', h('code', {}, name), unitName(name, info), ', as the analytics API names it.'),
    form,
    chart,
    h('h2', {}, 'Values'),
    table(
      'Values',
      ['milestone', 'value'],
      values.map(([i, v]) => [
        h('a', { href: `#/milestone/${i}` }, i),
        v === undefined ? '—' : valueText(name, v, info.baseToken),
      ]),
    ),
  );
  void draw(chart, label, points);
  return shown;
}

/** The unit of a measurement's values, for a label: " (in SMR)", " (in bytes)", or nothing for a count. */
function unitName(name: string, info: Info): string {
  const unit = unitOf(name);
  return unit === 'count' ? '' : ` (in ${unit === 'amount' ? info.baseToken.unit : 'bytes'})`;
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

async function draw(into: HTMLElement, label: string, points: (readonly [number, number])[]): Promise<void> {
  const { default: UPlot } = await import('uplot');
  const widthNow = () => Math.max(320, Math.min(into.parentElement?.clientWidth ?? 900, 1100));
  const plot = new UPlot(
    {
      width: widthNow(),
      height: 320,
      scales: { x: { time: false } },
      // Compact values on the y axis (100M, 2.5K): a phone's chart leaves them 50 px.
      axes: [{}, { values: (_: unknown, splits: number[]) => splits.map((v) => COMPACT.format(v)) }],
      series: [{ label: 'milestone' }, { label, stroke: '#0b5cad', width: 2 }],
    },
    [points.map((p) => p[0]), points.map((p) => p[1])],
    into,
  );
  // A window that narrows or widens (a phone turned, a window resized) redraws the chart at its new width; a chart
  // drawn at 1,280 px left in a 390 px window made the page wider than the window.
  const parent = into.parentElement;
  if (parent !== null && typeof ResizeObserver === 'function') {
    const watch = new ResizeObserver(() => {
      if (!into.isConnected) {
        watch.disconnect();
        plot.destroy();
      } else if (plot.width !== widthNow()) plot.setSize({ width: widthNow(), height: 320 });
    });
    watch.observe(parent);
  }
  into.dataset.drawn = String(points.length);
}
