import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer } from 'src/platform/config/variables';

/** A payload reaches the agent as inline text, whose limit is 512 KiB: a larger body could not. */
const WEBHOOK_BODY_MAX_BYTES = 512 * 1024;

const triggersConfig = ConfigSchema.of({
  maxPerAgent: integer('TRIGGERS_MAX_PER_AGENT', {
    default: 20,
    min: 1,
    max: 1_000,
    description:
      "Triggers (schedules, webhooks, enabled or not) one agent may have from the routes; its tools' apart.",
  }),
  maxPerConversation: integer('TRIGGERS_MAX_PER_CONVERSATION', {
    default: 3,
    min: 0,
    max: 100,
    description: "Schedules agents' `triggers` tools may create from one conversation (0: none).",
  }),
  maxFromToolsPerMember: integer('TRIGGERS_MAX_FROM_TOOLS_PER_MEMBER', {
    default: 5,
    min: 0,
    max: 1_000,
    description:
      "Schedules agents' `triggers` tools may create of one agent for one member, all conversations (0: none).",
  }),
  maxFromToolsPerAgent: integer('TRIGGERS_MAX_FROM_TOOLS_PER_AGENT', {
    default: 20,
    min: 0,
    max: 1_000,
    description: "Schedules agents' `triggers` tools may create of one agent, for all members (0: none).",
  }),
  webhookBodyLimitBytes: integer('WEBHOOK_BODY_LIMIT_BYTES', {
    default: WEBHOOK_BODY_MAX_BYTES,
    min: 1_024,
    max: WEBHOOK_BODY_MAX_BYTES,
    description:
      'Bytes of a webhook delivery read at most (413 beyond); at most 512 KiB, what a content fragment of inline text takes.',
  }),
  webhookSourceRequestsPerMinute: integer('WEBHOOK_SOURCE_REQUESTS_PER_MINUTE', {
    default: 1_200,
    min: 1,
    max: 1_000_000,
    description:
      'Signed deliveries one webhook source may make a minute, per process, as a bucket refilled evenly (429 beyond).',
  }),
  webhookUnverifiedPerAddressPerMinute: integer('WEBHOOK_UNVERIFIED_PER_ADDRESS_PER_MINUTE', {
    default: 60,
    min: 1,
    max: 1_000_000,
    description:
      'Webhook requests one client address (an IPv6 /64) may make a minute, per process, that fail verification; beyond, its requests are refused with 429 before their body is read.',
  }),
  webhookUnverifiedPerSourcePerMinute: integer('WEBHOOK_UNVERIFIED_PER_SOURCE_PER_MINUTE', {
    default: 600,
    min: 1,
    max: 1_000_000,
    description:
      "Webhook requests to one source a minute, per process, that fail verification; beyond, the source's requests are refused with 429 before their body is read.",
  }),
  firingBatchSize: integer('TRIGGERS_FIRING_BATCH_SIZE', {
    default: 50,
    min: 1,
    max: 500,
    description: 'Due schedules one transaction claims and fires together.',
  }),
  webhookProcessingBatchSize: integer('WEBHOOK_PROCESSING_BATCH_SIZE', {
    default: 50,
    min: 1,
    max: 500,
    description: 'Stored webhook deliveries one transaction claims and processes together.',
  }),
});

export abstract class TriggersConfig extends configToken(triggersConfig) {}
