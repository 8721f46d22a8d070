import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type * as views from 'src/modules/conversations/application/views/public-conversation.view';
import { AgentMessage } from 'src/modules/conversations/http/schemas/agent-message.schema';
import { ContentFragment } from 'src/modules/conversations/http/schemas/content-fragment.schema';
import {
  ConversationView,
  CreatedConversationResponse,
} from 'src/modules/conversations/http/schemas/conversation.schema';
import { UserMessage } from 'src/modules/conversations/http/schemas/user-message.schema';

/** The conversation of the public family: Dust's `ConversationType`, which carries its content. */
@ApiExtraModels(UserMessage, AgentMessage, ContentFragment)
export class PublicConversationView extends ConversationView implements views.PublicConversationView {
  @ApiProperty({
    type: 'array',
    description:
      "Dust's `content`: every slot of the conversation in rank order, each as the list of its versions (here its latest version).",
    items: {
      type: 'array',
      items: {
        oneOf: [
          { $ref: getSchemaPath(UserMessage) },
          { $ref: getSchemaPath(AgentMessage) },
          { $ref: getSchemaPath(ContentFragment) },
        ],
        discriminator: { propertyName: 'type' },
      },
    },
  })
  content!: (UserMessage | AgentMessage | ContentFragment)[][];
}

export class PublicConversationResponse {
  conversation!: PublicConversationView;
}

export class PublicCreatedConversationResponse
  extends CreatedConversationResponse
  implements views.PublicCreatedConversationView
{
  // Declared again to narrow the inherited field; the plugin reads no `declare`d field.
  @ApiProperty({ type: PublicConversationView }) declare conversation: PublicConversationView;
}
