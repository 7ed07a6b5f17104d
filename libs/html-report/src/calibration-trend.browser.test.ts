import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CalibrationReport, TrendEntry } from '@parley/calibration';
import { REPOSITORY } from './test-support/booking-fixtures.js';
import { browserForSuite, chromiumPath, NO_CHROMIUM, openReport } from './test-support/chromium.js';
import { writeCalibrationHtml } from './write-html.js';

/** What the test reads of an SVG element in the page (the tests' TypeScript has no DOM types). */
interface Drawn {
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
  textContent: string | null;
}

const chromium = chromiumPath();
if (chromium === undefined) console.warn(NO_CHROMIUM);

/**
 * The calibration page's trend chart in a real headless Chromium, made from the repository's own
 * report (calibration/reports/2026-11-26.json) with a trend whose judge did worse than chance on
 * one axis: κ runs from −1 to 1, and a negative κ must be drawn below the zero line.
 */
describe.skipIf(chromium === undefined)('calibration trend chart in Chromium', { timeout: 120_000 }, () => {
  const suite = browserForSuite('parley-trend-');

  it('draws a negative κ below the zero line, with the axis reaching it, and the last date whole', async () => {
    const stored = JSON.parse(readFileSync(join(REPOSITORY, 'calibration/reports/2026-11-26.json'), 'utf8')) as CalibrationReport;
    const axes = [...stored.set.axes, 'overall'];
    const entry = (id: string, day: string, kappas: number[]): TrendEntry => ({
      ...stored.trend[0]!,
      session_id: id,
      started_at: `2026-${day}T06:00:00.000Z`,
      kappa_quadratic: Object.fromEntries(axes.map((axis, index) => [axis, kappas[index]!])),
    });
    const report: CalibrationReport = {
      ...stored,
      trend: [entry('s-sep', '09-28', [0.8, 0.7, 0.6, 0.7]), entry('s-oct', '10-27', [0.5, -0.35, 0.2, 0.1]), entry('s-nov', '11-26', [0.97, 0.95, 0.64, 0.87])],
    };
    const file = writeCalibrationHtml(join(suite.dir, 'reports'), report, 'no ratings here');

    const page = await suite.newPage();
    await openReport(page, file);
    const chart = page.locator('section[aria-labelledby="trend-heading"] svg[role="img"]');
    const read = (selector: string) =>
      chart.locator(selector).evaluateAll((elements) =>
        (elements as unknown as Drawn[]).map((element) => ({
          text: element.textContent ?? '',
          box: element.getBoundingClientRect(),
        })),
      );
    const svgBox = await chart.evaluate((element) => (element as unknown as Drawn).getBoundingClientRect());
    // Every date label lies inside the chart: the last one is not cut off at the right edge.
    const dates = await read('text[text-anchor]');
    expect(dates.map((date) => date.text)).toEqual(['2026-09-28', '2026-10-27', '2026-11-26']);
    for (const date of dates) {
      expect(date.box.left, date.text).toBeGreaterThanOrEqual(svgBox.left);
      expect(date.box.right, date.text).toBeLessThanOrEqual(svgBox.right);
    }
    const centre = (box: { top: number; bottom: number }) => (box.top + box.bottom) / 2;
    const ticks = await read('text:not([text-anchor])');
    const zeroTick = ticks.find((tick) => tick.text === '0.0')!;
    // response_naturalness (the second series) in October is −0.35: below the 0.0 tick (screen y
    // grows downwards); every positive κ above it.
    const series = await Promise.all(axes.map((_, index) => read(`g.series-${index} circle`)));
    const negative = series[1]![1]!;
    expect(centre(negative.box)).toBeGreaterThan(centre(zeroTick.box) + 5);
    const positive = report.trend.flatMap((session, position) => axes.map((axis, index) => [session.kappa_quadratic[axis]!, series[index]![position]!] as const)).filter(([kappa]) => kappa > 0);
    expect(positive).toHaveLength(11);
    for (const [, point] of positive) expect(centre(point.box)).toBeLessThan(centre(zeroTick.box));
    // The axis is labelled down to a value at or below the lowest κ, with a true minus sign.
    expect(Math.min(...ticks.map((tick) => Number(tick.text.replace('\u2212', '-'))))).toBeLessThanOrEqual(-0.35);
    // The zero line is drawn apart from the grid, level with its tick.
    const [zero] = await read('line.zero-line');
    expect(zero, 'a zero line is drawn').toBeDefined();
    expect(Math.abs(centre(zero!.box) - centre(zeroTick.box))).toBeLessThan(6);
    await page.context().close();
  });
});
