import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer } from 'src/platform/config/variables';

const triggersConfig = ConfigSchema.of({
  maxPerAgent: integer('TRIGGERS_MAX_PER_AGENT', {
    default: 20,
    min: 1,
    max: 1_000,
    description: 'Triggers (schedules and webhooks, enabled or not) one agent may have.',
  }),
  maxPerConversation: integer('TRIGGERS_MAX_PER_CONVERSATION', {
    default: 3,
    min: 0,
    max: 100,
    description: "Schedules agents' `triggers` tools may create from one conversation (0: none).",
  }),
  firingBatchSize: integer('TRIGGERS_FIRING_BATCH_SIZE', {
    default: 50,
    min: 1,
    max: 500,
    description: 'Due schedules one transaction claims and fires together.',
  }),
});

export abstract class TriggersConfig extends configToken(triggersConfig) {}
