import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rescheduleRequired } from '../../../../../src/core/propagation/scheduler/reschedule.ts';

test('rescheduleRequired: only a trigger later than the last schedule, at whole seconds (table)', () => {
  const cases: Array<[string | undefined, string | undefined, boolean]> = [
    [undefined, '2025-01-01T00:00:00Z', false],
    ['2025-01-01T00:00:01Z', undefined, false], // first schedule pending: it happens anyway
    ['2025-01-01T00:00:01Z', '2025-01-01T00:00:00Z', true],
    ['2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', false],
    ['2024-12-31T23:59:59Z', '2025-01-01T00:00:00Z', false],
    ['2025-01-01T00:00:00.900Z', '2025-01-01T00:00:00Z', false], // same second
    ['2025-01-01T01:00:00+01:00', '2024-12-31T23:59:59Z', true], // offsets are honoured
    ['not a time', '2025-01-01T00:00:00Z', false],
  ];
  for (const [trigger, last, want] of cases) assert.equal(rescheduleRequired(trigger, last), want, `${trigger} vs ${last}`);
});
