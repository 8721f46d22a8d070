import type { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import type { ConversationView } from 'src/modules/conversations/application/views/conversation.view';
import type { SlotView, UserMessageView } from 'src/modules/conversations/application/views/message.view';

/**
 * Dust's `ConversationType`, as the public family answers a conversation: endpoint 11's fields and
 * its `content`, every slot in rank order as the list of its versions (here its latest version).
 */
export interface PublicConversationView extends ConversationView {
  content: SlotView[][];
}

/** Dust's answer to a creation: the conversation with its content, and what the request added to it. */
export interface PublicCreatedConversationView {
  conversation: PublicConversationView;
  message?: UserMessageView;
  contentFragments?: ContentFragmentView[];
}
