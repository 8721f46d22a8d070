import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import { UserMessageView } from 'src/modules/conversations/application/views/message.view';
import type { Role } from 'src/platform/auth/caller';
import type {
  ConversationDetails,
  ForkAuthor,
} from 'src/modules/conversations/application/conversation-details.loader';
import { isUnread } from 'src/modules/conversations/domain/conversation';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';

/** A fork's author, in the fields of Dust's UserType. */
@ApiSchema({ name: 'ForkUserSchema' })
export class ForkUserView {
  sId!: string;
  id!: number;
  createdAt!: number;
  /** @example api */
  provider!: string;
  username!: string;
  email!: string;
  firstName!: string;
  lastName!: string;
  fullName!: string;
  image!: string;
  lastLoginAt!: number | null;
}

@ApiSchema({ name: 'ForkedFromSchema' })
export class ForkedFromView {
  parentConversationId!: string;
  parentConversationTitle!: string | null;
  sourceMessageId!: string;
  branchedAt!: number;
  user!: ForkUserView | null;
  fileCopyStatus!: 'pending' | 'completed';
}

@ApiSchema({ name: 'ForkedChildSchema' })
export class ForkedChildView {
  childConversationId!: string;
  childConversationTitle!: string | null;
  sourceMessageId!: string;
  branchedAt!: number;
  user!: ForkUserView | null;
}

/** The conversation's workspace, as Dust's WorkspaceType (with the caller's role in it). */
@ApiSchema({ name: 'ConversationOwnerSchema' })
export class ConversationOwnerView {
  /** @example 12 */
  id!: number;
  /** @example Wk3xY8qPzL */
  sId!: string;
  /** @example Acme */
  name!: string;
  /** The caller's role in the workspace */
  role!: Role;
  @ApiProperty({ type: String, nullable: true, description: 'Always null here (Dust field).' })
  segmentation!: null;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'Always null: every configured provider is allowed (Dust field).',
  })
  whiteListedProviders!: null;
  @ApiProperty({ type: String, nullable: true, description: 'Always null here (Dust field).' })
  defaultEmbeddingProvider!: null;
}

@ApiSchema({ name: 'ForkingDataSchema' })
export class ForkingDataView {
  forkedFrom!: ForkedFromView | null;
  forkedChildren!: ForkedChildView[];
}

/** The conversation without content (endpoint 11), as one caller sees it. */
export class ConversationView {
  id!: number;
  created!: number;
  updated!: number;
  sId!: string;
  depth!: number;
  unread!: boolean;
  /** null until the caller has read it */
  lastReadMs!: number | null;
  actionRequired!: boolean;
  hasError!: boolean;
  /** null until set or derived from the first message */
  title!: string | null;
  /**
   * The conversation's address on this service: `PUBLIC_BASE_URL` and its resource path.
   * @example https://agents.example.com/api/w/w_1/assistant/conversations/c_1
   */
  url!: string;
  spaceId!: string | null;
  triggerId!: string | null;
  metadata!: Record<string, unknown>;
  /**
   * sIds of the spaces a reader must all access: those its agents need, and those whose data (search
   * and include_data outputs) it holds. Spaces are only ever added.
   */
  requestedSpaceIds!: string[];
  forkingData!: ForkingDataView;
  owner!: ConversationOwnerView;
  /** Dust's visibility: a conversation is seen by its participants (deleted ones are not served). */
  visibility!: 'unlisted';
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'requestedSpaceIds as groups: each space is its own group (Dust field).',
  })
  requestedGroupIds!: string[][];
}

export class ConversationDeletedResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class ConversationResponse {
  conversation!: ConversationView;
}

export class ConversationsResponse {
  conversations!: ConversationView[];
  nextCursor!: string | null;
}

export class CreatedConversationResponse {
  conversation!: ConversationView;
  message?: UserMessageView;
  /** The content fragments given, in order */
  contentFragments?: ContentFragmentView[];
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
