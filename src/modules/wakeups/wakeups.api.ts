/**
 * What other contexts use of wakeups: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { ScheduledWakeUpsReader } from 'src/modules/wakeups/application/scheduled-wake-ups.reader';
export { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
export type { WakeUpDetails } from 'src/modules/wakeups/application/wakeups.service';
export { WakeUpsModule } from 'src/modules/wakeups/wakeups.module';
