import { ApiProperty } from '@nestjs/swagger';
import type { LightAgentConfigurationView, LightAgentModelView } from 'src/modules/agents/agents.api';
import type {
  AgentErrorView,
  AgentMessageView,
} from 'src/modules/conversations/application/views/message.view';
import type { AgentMessageStatus } from 'src/modules/conversations/domain/message';
import { AgentActionSchema } from 'src/modules/conversations/http/schemas/agent-action.schema';

export class LightAgentModelSchema implements LightAgentModelView {
  /** @example openai */
  providerId!: string;
  /** @example gpt-4o-mini */
  modelId!: string;
  /** @example 0.7 */
  temperature!: number;
}

/** Dust's light agent form: the agent version that answers. */
export class LightAgentConfigurationSchema implements LightAgentConfigurationView {
  id!: number;
  sId!: string;
  version!: number;
  /** ISO 8601 */
  versionCreatedAt!: string;
  /** Row id of the author; null for built-in agents */
  versionAuthorId!: number | null;
  name!: string;
  description!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null in a message: its readers may not be allowed to read the agent',
  })
  instructions!: null;
  pictureUrl!: string;
  /** @example active */
  status!: LightAgentConfigurationView['status'];
  /** @example visible */
  scope!: LightAgentConfigurationView['scope'];
  @ApiProperty({ enum: [false], description: 'False: a message is the same for every reader' })
  userFavorite!: false;
  model!: LightAgentModelSchema;
  maxStepsPerRun!: number;
  visualizationEnabled!: boolean;
  templateId!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } })
  requestedGroupIds!: string[][];
}

export class AgentErrorSchema implements AgentErrorView {
  /** @example model_error */
  code!: string;
  message!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "Dust's error details: always null here (the message says it all)",
  })
  metadata!: null;
}

export class RawContentSchema {
  /** @example 0 */
  step!: number;
  content!: string;
}

export class AgentMessage implements AgentMessageView {
  type!: 'agent_message';
  sId!: string;
  id!: number;
  /** Dust's agent message id: here the message's row id */
  agentMessageId!: number;
  version!: number;
  rank!: number;
  created!: number;
  visibility!: 'visible';
  /** sId of the user message answered */
  parentMessageId!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: an answer here always answers a user message',
  })
  parentAgentMessageId!: null;
  configuration!: LightAgentConfigurationSchema;
  status!: AgentMessageStatus;
  content!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: model reasoning is streamed (classification chain_of_thought), not kept',
  })
  chainOfThought!: null;
  /** The answer as one entry (per-step outputs are not kept apart); empty while it is empty */
  rawContents!: RawContentSchema[];
  error!: AgentErrorSchema | null;
  completedTs!: number | null;
  /** The tool calls of the answer, in call order. */
  actions!: AgentActionSchema[];
}
