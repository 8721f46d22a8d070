import { Injectable } from '@nestjs/common';
import { Caller, type Role } from 'src/platform/auth/caller';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { SpacesService, WorkspacesService } from 'src/modules/identity/identity.api';
import {
  ConversationRead,
  ConversationRepository,
} from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type { Conversation, Participation } from 'src/modules/conversations/domain/conversation';

/** A fork's author, as identity's application gives users. */
export type ForkAuthor = Awaited<ReturnType<WorkspacesService['membersByUserIds']>>[number]['user'];

export interface ForkLink {
  conversation: Conversation;
  sourceMessageSId: string;
  branchedAt: Date;
  user: ForkAuthor | null;
}

/** The workspace a conversation belongs to, as the caller sees it (its role in it). */
export interface ConversationOwner {
  id: number;
  sId: string;
  name: string;
  role: Role;
}

/** A conversation with what its wire form needs for one caller. */
export interface ConversationDetails {
  conversation: Conversation;
  /** The conversation's address on this service (`PUBLIC_BASE_URL` and its resource path). */
  url: string;
  owner: ConversationOwner;
  participation: Participation | null;
  spaceSId: string | null;
  forkedFrom: (ForkLink & { fileCopyStatus: 'pending' | 'completed' }) | null;
  forkedChildren: ForkLink[];
}

/** Loads the details of a page of conversations in a fixed number of queries. */
@Injectable()
export class ConversationDetailsLoader {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly workspaces: WorkspacesService,
    private readonly spaces: SpacesService,
    private readonly platform: PlatformConfig,
  ) {}

  async load(caller: Caller, conversations: Conversation[]): Promise<ConversationDetails[]> {
    if (conversations.length === 0) return [];
    const ids = conversations.map((conversation) => conversation.id);
    const [participations, children] = await Promise.all([
      this.conversations.participations(caller.workspaceId, ids, caller.userId),
      this.conversations.findChildren(caller.workspaceId, ids),
    ]);
    return this.assemble(caller, conversations, participations, children);
  }

  /** The details of a conversation read by ConversationsService.getForReader, without reading again what it holds. */
  async loadRead(caller: Caller, read: ConversationRead): Promise<ConversationDetails> {
    const { conversation, participation } = read;
    const children = read.hasChildren
      ? await this.conversations.findChildren(caller.workspaceId, [conversation.id])
      : [];
    const participations = new Map(participation ? [[conversation.id, participation]] : []);
    const spaceSIds = new Map(conversation.spaceId === null ? [] : [[conversation.spaceId, read.spaceSId]]);
    const [details] = await this.assemble(caller, [conversation], participations, children, spaceSIds);
    return details;
  }

  private async assemble(
    caller: Caller,
    conversations: Conversation[],
    participations: Map<number, Participation>,
    children: Conversation[],
    /** The sIds of the conversations' spaces, when the read already holds them. */
    knownSpaceSIds?: Map<number, string | null>,
  ): Promise<ConversationDetails[]> {
    const parentIds = conversations.flatMap((c) => (c.forkedFrom ? [c.forkedFrom.parentConversationId] : []));
    const links = [...conversations, ...children].flatMap((c) => (c.forkedFrom ? [c.forkedFrom] : []));
    const [parents, spaces, sources, members] = await Promise.all([
      this.conversations.findByIds(caller.workspaceId, parentIds),
      !knownSpaceSIds && conversations.some((c) => c.spaceId !== null)
        ? this.spaces.listAll(caller)
        : Promise.resolve([]),
      this.messages.findByIds(
        caller.workspaceId,
        links.map((link) => link.sourceMessageId),
      ),
      this.workspaces.membersByUserIds(
        caller.workspaceId,
        links.map((link) => link.forkedByUserId),
      ),
    ]);
    const sourceSIds = new Map(sources.map((message) => [message.id, message.sId]));
    const users = new Map(members.map((member) => [member.user.id, member.user]));
    const parentsById = new Map(parents.map((parent) => [parent.id, parent]));
    const spaceSIds = knownSpaceSIds ?? new Map(spaces.map((space) => [space.id, space.sId]));
    // The workspace as the caller's key resolved it (kept with the key for a few seconds).
    const owner = {
      id: caller.workspaceId,
      sId: caller.workspaceSId,
      name: caller.workspaceName,
      role: caller.role,
    };

    return conversations.map((conversation) => {
      const origin = conversation.forkedFrom;
      const parent = origin ? parentsById.get(origin.parentConversationId) : undefined;
      return {
        conversation,
        url: `${this.platform.publicBaseUrl}/api/w/${owner.sId}/assistant/conversations/${conversation.sId}`,
        owner,
        participation: participations.get(conversation.id) ?? null,
        spaceSId: conversation.spaceId === null ? null : (spaceSIds.get(conversation.spaceId) ?? null),
        forkedFrom:
          origin && parent
            ? {
                conversation: parent,
                sourceMessageSId: sourceSIds.get(origin.sourceMessageId) ?? '',
                branchedAt: origin.branchedAt,
                user: users.get(origin.forkedByUserId) ?? null,
                fileCopyStatus: origin.fileCopyStatus,
              }
            : null,
        forkedChildren: children
          .filter((child) => child.forkedFrom?.parentConversationId === conversation.id)
          .map((child) => ({
            conversation: child,
            sourceMessageSId: sourceSIds.get(child.forkedFrom!.sourceMessageId) ?? '',
            branchedAt: child.forkedFrom!.branchedAt,
            user: users.get(child.forkedFrom!.forkedByUserId) ?? null,
          })),
      };
    });
  }
}
