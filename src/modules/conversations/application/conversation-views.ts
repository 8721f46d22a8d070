import type {
  ConversationDetails,
  ForkAuthor,
} from 'src/modules/conversations/application/conversation-details.loader';
import type {
  ConversationView,
  ForkUserView,
} from 'src/modules/conversations/application/views/conversation.view';
import { isUnread } from 'src/modules/conversations/domain/conversation';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';

function forkUser(user: ForkAuthor | null): ForkUserView | null {
  if (!user) return null;
  return {
    sId: user.sId,
    id: user.id,
    createdAt: user.createdAt.getTime(),
    provider: user.provider,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: user.fullName,
    image: user.image ?? defaultPictureUrl(user.sId),
    lastLoginAt: user.lastLoginAt?.getTime() ?? null,
  };
}

/** A conversation without its content (endpoint 11's shape), as the caller its details were loaded for sees it. */
export function renderConversation(details: ConversationDetails): ConversationView {
  const { conversation, participation, forkedFrom, owner } = details;
  return {
    id: conversation.id,
    created: conversation.createdAt.getTime(),
    updated: conversation.updatedAt.getTime(),
    sId: conversation.sId,
    depth: conversation.depth,
    unread: isUnread(conversation, participation),
    lastReadMs: participation?.lastReadAt?.getTime() ?? null,
    actionRequired: participation?.actionRequired ?? false,
    hasError: conversation.hasError,
    title: conversation.title,
    url: details.url,
    spaceId: details.spaceSId,
    triggerId: conversation.triggerId,
    metadata: conversation.metadata,
    requestedSpaceIds: conversation.requestedSpaceIds,
    requestedGroupIds: conversation.requestedSpaceIds.map((spaceId) => [spaceId]),
    visibility: 'unlisted',
    owner: {
      ...owner,
      segmentation: null,
      whiteListedProviders: null,
      defaultEmbeddingProvider: null,
    },
    forkingData: {
      forkedFrom: forkedFrom && {
        parentConversationId: forkedFrom.conversation.sId,
        parentConversationTitle: forkedFrom.conversation.title,
        sourceMessageId: forkedFrom.sourceMessageSId,
        branchedAt: forkedFrom.branchedAt.getTime(),
        user: forkUser(forkedFrom.user),
        fileCopyStatus: forkedFrom.fileCopyStatus,
      },
      forkedChildren: details.forkedChildren.map((child) => ({
        childConversationId: child.conversation.sId,
        childConversationTitle: child.conversation.title,
        sourceMessageId: child.sourceMessageSId,
        branchedAt: child.branchedAt.getTime(),
        user: forkUser(child.user),
      })),
    },
  };
}
