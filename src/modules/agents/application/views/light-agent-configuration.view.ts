import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AgentScope, AgentStatus } from 'src/modules/agents/domain/agent-configuration';

@ApiSchema({ name: 'LightAgentModelSchema' })
export class LightAgentModelView {
  /** @example openai */
  providerId!: string;
  /** @example gpt-4o-mini */
  modelId!: string;
  /** @example 0.7 */
  temperature!: number;
}

/** Dust's light agent form: the agent version that answers. */
@ApiSchema({ name: 'LightAgentConfigurationSchema' })
export class LightAgentConfigurationView {
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
  status!: AgentStatus;
  /** @example visible */
  scope!: AgentScope;
  @ApiProperty({ enum: [false], description: 'False: a message is the same for every reader' })
  userFavorite!: false;
  model!: LightAgentModelView;
  maxStepsPerRun!: number;
  visualizationEnabled!: boolean;
  templateId!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } })
  requestedGroupIds!: string[][];
}
