import { ApiProperty } from '@nestjs/swagger';
import { AgentActionSchema } from 'src/modules/conversations/http/conversation.presenter';

export class ValidateActionResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ type: AgentActionSchema, description: 'The action after the answer.' })
  action!: AgentActionSchema;
}

class BlockedActionMetadataSchema {
  @ApiProperty({ example: 'delete_record' }) toolName!: string;
  @ApiProperty({ example: 'crm' }) mcpServerName!: string;
  @ApiProperty({ example: 'Support triage' }) agentName!: string;
}

export class BlockedActionSchema {
  @ApiProperty() conversationId!: string;
  @ApiProperty({ description: 'sId of the agent message that made the call' }) messageId!: string;
  @ApiProperty({ description: 'sId of the agent' }) configurationId!: string;
  @ApiProperty({ example: 'act_4fQx9LmT2a' }) actionId!: string;
  @ApiProperty({ example: 'crm__delete_record' }) functionCallName!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { id: 'rec_42' } })
  inputs!: Record<string, unknown>;
  @ApiProperty({ type: BlockedActionMetadataSchema }) metadata!: BlockedActionMetadataSchema;
  @ApiProperty() createdAt!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Unanswered by then (ms), the call is declined.',
  })
  expiresAt!: number | null;
}

export class BlockedActionsResponse {
  @ApiProperty({ type: [BlockedActionSchema] }) blockedActions!: BlockedActionSchema[];
}
