import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { AgentMessage } from 'src/modules/conversations/http/schemas/agent-message.schema';
import { ContentFragment } from 'src/modules/conversations/http/schemas/content-fragment.schema';
import { UserMessage } from 'src/modules/conversations/http/schemas/user-message.schema';

export class UserMessageResponse {
  message!: UserMessage;
}

export class AgentMessageResponse {
  message!: AgentMessage;
}

@ApiExtraModels(UserMessage, AgentMessage)
export class MessageResponse {
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(UserMessage) }, { $ref: getSchemaPath(AgentMessage) }] })
  message!: UserMessage | AgentMessage;
}

@ApiExtraModels(UserMessage, AgentMessage, ContentFragment)
export class MessagesResponse {
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(UserMessage) },
        { $ref: getSchemaPath(AgentMessage) },
        { $ref: getSchemaPath(ContentFragment) },
      ],
      discriminator: { propertyName: 'type' },
    },
  })
  messages!: (UserMessage | AgentMessage | ContentFragment)[];
  nextCursor!: string | null;
}
