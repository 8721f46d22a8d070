import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { duration, integer } from 'src/platform/config/variables';

const conversationsConfig = ConfigSchema.of({
  v1HistoryMs: duration('SSE_V1_HISTORY_MS', {
    default: 600_000,
    description:
      'A public-family conversation stream opened without a cursor starts with the events of this last span (`/api/v1/w/…/events`).',
  }),
  contentFragmentBudgetBytes: integer('CONTENT_FRAGMENT_BUDGET_BYTES', {
    default: 262_144,
    min: 1_024,
    max: 16_777_216,
    description:
      "Text of a conversation's content fragments a run gives the model (1 KiB to 16 MiB); a text past it is cut, saying so.",
  }),
  contentFragmentImageMaxBytes: integer('CONTENT_FRAGMENT_IMAGE_BYTES', {
    default: 10_485_760,
    min: 0,
    max: 67_108_864,
    description:
      'Bytes of the images of content fragments one model request may show, newest first (0 to 64 MiB; 0: none); an image past it is described by its title, saying so.',
  }),
});

/** What a conversation gives a model of its content fragments, and how its public stream starts. */
export abstract class ConversationsConfig extends configToken(conversationsConfig) {}
