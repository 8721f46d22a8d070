/** Where a wake-up stands: wakeups keeps it, and conversations shows it in `wake_up_updated` events. */
export type WakeUpStatus = 'scheduled' | 'fired' | 'cancelled' | 'expired';
