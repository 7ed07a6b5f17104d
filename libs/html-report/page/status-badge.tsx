import type { RunStatus } from '@parley/core';
import { STATUS_ICON } from './format.js';

/** A status as icon and word (the icon is decoration: the word is what is read out). */
export function StatusBadge({ status, label }: { status: RunStatus; label?: string }) {
  return (
    <span class={`status status-${status}`}>
      <span aria-hidden="true" class="status-icon">
        {STATUS_ICON[status]}
      </span>{' '}
      {label ?? status}
    </span>
  );
}
