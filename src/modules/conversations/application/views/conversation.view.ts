import type { Role } from 'src/platform/auth/caller';

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
  /** The conversation's address on this service. */
  url: string;
  spaceId: string | null;
  triggerId: string | null;
  metadata: Record<string, unknown>;
  requestedSpaceIds: string[];
  forkingData: ForkingDataView;
  owner: ConversationOwnerView;
  visibility: 'unlisted';
  requestedGroupIds: string[][];
}
