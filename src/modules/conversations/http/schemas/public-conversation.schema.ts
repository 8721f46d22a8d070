import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type * as views from 'src/modules/conversations/application/views/public-conversation.view';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import { AgentMessageView, UserMessageView } from 'src/modules/conversations/application/views/message.view';
import {
  ConversationView,
  CreatedConversationResponse,
} from 'src/modules/conversations/http/schemas/conversation.schema';

/** The conversation of the public family: Dust's `ConversationType`, which carries its content. */
@ApiExtraModels(UserMessageView, AgentMessageView, ContentFragmentView)
export class PublicConversationView extends ConversationView implements views.PublicConversationView {
  @ApiProperty({
    type: 'array',
    description:
      "Dust's `content`: every slot of the conversation in rank order, each as the list of its versions (here its latest version).",
    items: {
      type: 'array',
      items: {
        oneOf: [
          { $ref: getSchemaPath(UserMessageView) },
          { $ref: getSchemaPath(AgentMessageView) },
          { $ref: getSchemaPath(ContentFragmentView) },
        ],
        discriminator: { propertyName: 'type' },
      },
    },
  })
  content!: (UserMessageView | AgentMessageView | ContentFragmentView)[][];
}

export class PublicConversationResponse {
  conversation!: PublicConversationView;
}

export class PublicUpdatedConversationResponse implements views.PublicUpdatedConversationView {
  @ApiProperty({ enum: [true] }) success!: true;
  conversation!: PublicConversationView;
}

export class PublicCreatedConversationResponse
  extends CreatedConversationResponse
  implements views.PublicCreatedConversationView
{
  // Declared again to narrow the inherited field; the plugin reads no `declare`d field.
  @ApiProperty({ type: PublicConversationView }) declare conversation: PublicConversationView;
}
