import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { SlotView } from 'src/modules/conversations/application/message-views.loader';
import type * as views from 'src/modules/conversations/application/views/public-conversation.view';
import {
  AgentMessage,
  ContentFragment,
  ConversationView,
  CreatedConversationResponse,
  UserMessage,
} from 'src/modules/conversations/http/conversation.presenter';

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
  content!: SlotView[][];
}

export class PublicConversationResponse {
  @ApiProperty({ type: PublicConversationView }) conversation!: PublicConversationView;
}

export class PublicCreatedConversationResponse extends CreatedConversationResponse {
  @ApiProperty({ type: PublicConversationView }) declare conversation: PublicConversationView;
}
