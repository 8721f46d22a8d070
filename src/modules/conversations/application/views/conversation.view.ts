import type { Role } from 'src/platform/auth/caller';
import type {
  ConversationDetails,
  ForkAuthor,
} from 'src/modules/conversations/application/conversation-details.loader';
import { isUnread } from 'src/modules/conversations/domain/conversation';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';

/** A fork's author, in the fields of Dust's UserType. */
export interface ForkUserView {
  sId: string;
  id: number;
  createdAt: number;
  provider: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  image: string;
  lastLoginAt: number | null;
}

export interface ForkedFromView {
  parentConversationId: string;
  parentConversationTitle: string | null;
  sourceMessageId: string;
  branchedAt: number;
  user: ForkUserView | null;
  fileCopyStatus: 'pending' | 'completed';
}

export interface ForkedChildView {
  childConversationId: string;
  childConversationTitle: string | null;
  sourceMessageId: string;
  branchedAt: number;
  user: ForkUserView | null;
}

export interface ForkingDataView {
  forkedFrom: ForkedFromView | null;
  forkedChildren: ForkedChildView[];
}

/** The conversation's workspace, as Dust's WorkspaceType (with the caller's role in it). */
export interface ConversationOwnerView {
  id: number;
  sId: string;
  name: string;
  role: Role;
  segmentation: null;
  whiteListedProviders: null;
  defaultEmbeddingProvider: null;
}

/** The conversation without content (endpoint 11), as one caller sees it. */
export interface ConversationView {
  id: number;
  created: number;
  updated: number;
  sId: string;
  depth: number;
  unread: boolean;
  lastReadMs: number | null;
  actionRequired: boolean;
  hasError: boolean;
  title: string | null;
  spaceId: string | null;
  triggerId: string | null;
  metadata: Record<string, unknown>;
  requestedSpaceIds: string[];
  forkingData: ForkingDataView;
  owner: ConversationOwnerView;
  visibility: 'unlisted';
  requestedGroupIds: string[][];
}

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
