import { RunUsageRecords } from 'src/modules/usage/usage.api';

/**
 * Port: what runs cost, summed from the runtime's own records of them. It is how the runtime
 * answers usage's `RunUsageRecords` (bound in src/composition), so only the runtime queries its tables.
 */
export abstract class RunUsageTotals extends RunUsageRecords {}
