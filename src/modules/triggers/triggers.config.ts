import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer } from 'src/platform/config/variables';

const triggersConfig = ConfigSchema.of({
  maxPerAgent: integer('TRIGGERS_MAX_PER_AGENT', {
    default: 20,
    min: 1,
    max: 1_000,
    description: 'Triggers (schedules and webhooks, enabled or not) one agent may have.',
  }),
});

export abstract class TriggersConfig extends configToken(triggersConfig) {}
