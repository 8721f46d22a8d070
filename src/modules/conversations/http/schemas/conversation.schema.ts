import { ApiProperty } from '@nestjs/swagger';
import type * as views from 'src/modules/conversations/application/views/conversation.view';
import type { Role } from 'src/platform/auth/caller';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import { UserMessageView } from 'src/modules/conversations/application/views/message.view';

export class ForkUserSchema implements views.ForkUserView {
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

export class ForkedFromSchema implements views.ForkedFromView {
  parentConversationId!: string;
  parentConversationTitle!: string | null;
  sourceMessageId!: string;
  branchedAt!: number;
  user!: ForkUserSchema | null;
  fileCopyStatus!: 'pending' | 'completed';
}

export class ForkedChildSchema implements views.ForkedChildView {
  childConversationId!: string;
  childConversationTitle!: string | null;
  sourceMessageId!: string;
  branchedAt!: number;
  user!: ForkUserSchema | null;
}

/** The conversation's workspace, as Dust's WorkspaceType. */
export class ConversationOwnerSchema implements views.ConversationOwnerView {
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

export class ForkingDataSchema implements views.ForkingDataView {
  forkedFrom!: ForkedFromSchema | null;
  forkedChildren!: ForkedChildSchema[];
}

/** The conversation without content (endpoint 11). */
export class ConversationView implements views.ConversationView {
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
  forkingData!: ForkingDataSchema;
  owner!: ConversationOwnerSchema;
  /** Dust's visibility: a conversation is seen by its participants (deleted ones are not served). */
  visibility!: 'unlisted';
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'requestedSpaceIds as groups: each space is its own group (Dust field).',
  })
  requestedGroupIds!: string[][];
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
