// A reviewer saving ratings as fast as it can, for the crash and concurrency tests: rates items
// FIRST, FIRST+1, … (of setWithItems) and prints "saved <item id>" once each save has returned.
// Runs the compiled library (npm run build), as the real TUI would.
import { saveRating } from '@parley/calibration';

const [file, reviewer, first, count] = process.argv.slice(2);
const start = Number(first);
for (let index = start; index < start + Number(count); index += 1) {
  const id = `cal-2026-11-${String(index + 1).padStart(3, '0')}`;
  const score = (index % 5) + 1;
  await saveRating(file, id, {
    reviewer,
    rated_at: '2026-11-03T10:00:00Z',
    scores: { intent_comprehension: score, response_naturalness: 6 - score, cultural_appropriateness: 3 },
    note: `${reviewer} #${index}`,
  });
  process.stdout.write(`saved ${id}\n`);
}
