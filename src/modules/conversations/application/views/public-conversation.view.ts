import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import {
  ConversationView,
  CreatedConversationResponse,
} from 'src/modules/conversations/application/views/conversation.view';
import {
  AgentMessageView,
  type SlotView,
  UserMessageView,
} from 'src/modules/conversations/application/views/message.view';

/**
 * Dust's `ConversationType`, as the public family answers a conversation: endpoint 11's fields and
 * its `content`, every slot in rank order as the list of its versions (here its latest version).
 */
export class PublicConversationView extends ConversationView {
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
  content!: SlotView[][];
}

export class PublicConversationResponse {
  conversation!: PublicConversationView;
}

/** Dust's answer to a rename or a read mark (`{success}`), with the conversation as it is now. */
@ApiSchema({ name: 'PublicUpdatedConversationResponse' })
export class PublicUpdatedConversationView {
  @ApiProperty({ enum: [true] }) success!: true;
  conversation!: PublicConversationView;
}

/** Dust's answer to a creation: the conversation with its content, and what the request added to it. */
@ApiSchema({ name: 'PublicCreatedConversationResponse' })
export class PublicCreatedConversationView extends CreatedConversationResponse {
  // Declared again to narrow the inherited field; the plugin reads no `declare`d field.
  @ApiProperty({ type: PublicConversationView }) declare conversation: PublicConversationView;
}
