import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import {
  AgentDetails,
  AgentsService,
  AgentVersion,
  lightAgentConfiguration,
} from 'src/modules/agents/agents.api';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { renderAction } from 'src/modules/conversations/application/action-views';
import { renderContentFragment } from 'src/modules/conversations/application/content-fragments.service';
import { AnswerAction, AnswerActions } from 'src/modules/conversations/application/ports/answer-actions';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type {
  AgentMessageView,
  MessageUserView,
  MessageView,
  ReactionView,
  SlotView,
  UserMessageView,
} from 'src/modules/conversations/application/views/message.view';
import type { ContentFragment } from 'src/modules/conversations/domain/content-fragment';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';
import {
  AgentMessage,
  Message,
  Reaction,
  UserMessage,
  agentMentions,
} from 'src/modules/conversations/domain/message';

/** A message's author or reactor, as identity's application gives users. */
type User = Awaited<ReturnType<WorkspacesService['usersByIds']>>[number];

/**
 * Builds the wire form of messages. It lives in the application, not in a presenter, because the
 * event log stores messages in this form when they are written (docs/decisions/conversations.md,
 * "Message wire shapes are built in the application").
 */
@Injectable()
export class MessageViews {
  constructor(
    private readonly messages: MessageRepository,
    private readonly actions: AnswerActions,
    private readonly workspaces: WorkspacesService,
    private readonly agents: AgentsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Messages of any kind, in the order given. What they need is read once for them all: the agents
   * both mentioned and answering are described together, and an answer's parent is looked up only
   * when it is not among the messages. `reactions`: the reactions to them when they were read with
   * the messages (a page), so that they are not read again.
   */
  async views(caller: Caller, messages: Message[], reactions?: Reaction[]): Promise<MessageView[]> {
    return (await this.slotViews(caller, null, messages, reactions)) as MessageView[];
  }

  /**
   * `views` of a list that may hold content fragments (the message list of `conversationSId`, which
   * their text URLs name), rendered in place.
   */
  async slotViews(
    caller: Caller,
    conversationSId: string | null,
    slots: (Message | ContentFragment)[],
    reactions?: Reaction[],
  ): Promise<SlotView[]> {
    const messages = slots.filter((slot): slot is Message => slot.type !== 'content_fragment');
    const users = messages.filter((message): message is UserMessage => message.type === 'user_message');
    const answers = messages.filter((message): message is AgentMessage => message.type === 'agent_message');
    const sIds = new Map<number, string>(messages.map((message) => [message.id, message.sId]));
    const data = await this.load(caller, users, reactions, {
      agentSIds: answers.map((answer) => answer.agentSId),
      parentIds: answers.map((answer) => answer.parentMessageId).filter((id) => !sIds.has(id)),
      ids: answers.map((answer) => answer.id),
    });
    const actionsByMessage = new Map<number, AnswerAction[]>();
    for (const action of data.actions) {
      const list = actionsByMessage.get(action.messageId);
      if (list) list.push(action);
      else actionsByMessage.set(action.messageId, [action]);
    }
    for (const parent of data.parents) sIds.set(parent.id, parent.sId);
    const agentsBySId = new Map(data.agents.map((details) => [details.agent.sId, details.agent]));
    // Agents are archived, never deleted: every answer's agent is found.
    const agentOf = (message: AgentMessage) => agentsBySId.get(message.agentSId) as AgentVersion;
    const index = indexForUserMessages(data);
    return slots.map((message) =>
      message.type === 'content_fragment'
        ? renderContentFragment(message, caller.workspaceSId, conversationSId ?? '')
        : message.type === 'user_message'
          ? renderIndexedUserMessage(message, index)
          : renderAgentMessage(
              message,
              sIds.get(message.parentMessageId) ?? '',
              agentOf(message),
              actionsByMessage.get(message.id) ?? [],
            ),
    );
  }

  async userMessages(caller: Caller, messages: UserMessage[]): Promise<UserMessageView[]> {
    const data = await this.load(caller, messages, undefined, { agentSIds: [], parentIds: [], ids: [] });
    const index = indexForUserMessages(data);
    return messages.map((message) => renderIndexedUserMessage(message, index));
  }

  /**
   * What the views of `users` and of agent messages need: the reactions to `users` (unless known),
   * their authors and reactors, the agents they mention and `answering.agentSIds`, and the messages
   * `answering.parentIds`, and the actions of the agent messages `answering.ids`.
   */
  private async load(
    caller: Caller,
    users: UserMessage[],
    knownReactions: Reaction[] | undefined,
    answering: { agentSIds: string[]; parentIds: number[]; ids: number[] },
  ): Promise<{
    users: Map<number, User>;
    agents: AgentDetails[];
    reactions: Reaction[];
    parents: Message[];
    actions: AnswerAction[];
  }> {
    const reactions =
      users.length === 0
        ? []
        : (knownReactions ??
          (await this.messages.reactionsOf(
            caller.workspaceId,
            users.map((message) => message.id),
          )));
    const [authors, agents, parents, actions] = await this.unitOfWork.all([
      // The ids come from this workspace's messages; authors include the system user, not a member.
      () =>
        this.workspaces.usersByIds([
          ...users.map((message) => message.userId),
          ...reactions.map((reaction) => reaction.userId),
        ]),
      () =>
        this.agents.describe(caller, [
          ...users.flatMap((message) => agentMentions(message.mentions)),
          ...answering.agentSIds,
        ]),
      () => this.messages.findByIds(caller.workspaceId, [...new Set(answering.parentIds)]),
      () => this.actions.listForMessages(caller.workspaceId, answering.ids),
    ]);
    return {
      users: new Map(authors.map((user) => [user.id, user])),
      agents,
      reactions,
      parents,
      actions,
    };
  }
}

/**
 * An agent message's view from what the caller already holds: the parent's sId and the agent.
 * Used as is where the message is written, so that holds no extra query.
 */
export function renderAgentMessage(
  message: AgentMessage,
  parentSId: string,
  agent: AgentVersion,
  actions: AnswerAction[],
): AgentMessageView {
  return {
    type: 'agent_message',
    sId: message.sId,
    id: message.id,
    agentMessageId: message.id,
    version: message.version,
    rank: message.rank,
    created: message.createdAt.getTime(),
    visibility: 'visible',
    parentMessageId: parentSId,
    parentAgentMessageId: null,
    configuration: lightAgentConfiguration(agent),
    status: message.status,
    content: message.content,
    chainOfThought: null,
    rawContents: message.content === '' ? [] : [{ step: 0, content: message.content }],
    error: message.error && { ...message.error, metadata: null },
    completedTs: message.completedAt?.getTime() ?? null,
    actions: actions.map(renderAction),
  };
}

/** What the views of user messages read, indexed once for all the messages of a page. */
interface UserMessageIndex {
  users: Map<number, User>;
  agentsBySId: Map<string, AgentDetails>;
  reactionsByMessage: Map<number, Reaction[]>;
}

function indexForUserMessages(data: {
  users: Map<number, User>;
  agents: AgentDetails[];
  reactions: Reaction[];
}): UserMessageIndex {
  const reactionsByMessage = new Map<number, Reaction[]>();
  for (const reaction of data.reactions) {
    const list = reactionsByMessage.get(reaction.messageId);
    if (list) list.push(reaction);
    else reactionsByMessage.set(reaction.messageId, [reaction]);
  }
  return {
    users: data.users,
    agentsBySId: new Map(data.agents.map((details) => [details.agent.sId, details])),
    reactionsByMessage,
  };
}

/** A user message's view from the users and agents it names, loaded beforehand. */
export function renderUserMessage(
  message: UserMessage,
  data: { users: Map<number, User>; agents: AgentDetails[]; reactions: Reaction[] },
): UserMessageView {
  return renderIndexedUserMessage(message, indexForUserMessages(data));
}

function renderIndexedUserMessage(message: UserMessage, data: UserMessageIndex): UserMessageView {
  const { agentsBySId } = data;
  const author = data.users.get(message.userId);
  return {
    type: 'user_message',
    sId: message.sId,
    created: message.createdAt.getTime(),
    version: message.version,
    rank: message.rank,
    content: message.content,
    id: message.id,
    visibility: 'visible',
    user: userView(message, author),
    mentions: message.mentions,
    richMentions: agentMentions(message.mentions).flatMap((agentSId) => {
      const details = agentsBySId.get(agentSId);
      if (!details) return [];
      return [
        {
          id: agentSId,
          type: 'agent' as const,
          label: details.agent.name,
          pictureUrl: details.agent.pictureUrl,
          description: details.agent.description,
          dismissed: false,
          status: details.canRead ? 'approved' : 'pending_conversation_access',
          userFavorite: details.userFavorite,
        },
      ];
    }),
    context: {
      username: message.context.username,
      timezone: message.context.timezone,
      origin: message.context.origin,
      fullName: message.context.fullName ?? author?.fullName ?? '',
      email: message.context.email ?? author?.email ?? '',
      profilePictureUrl:
        message.context.profilePictureUrl ?? author?.image ?? defaultPictureUrl(message.context.username),
      clientSideMCPServerIds: message.context.clientSideMCPServerIds ?? null,
      selectedMCPServerViewIds: message.context.selectedMCPServerViewIds ?? null,
      lastTriggerRunAt: message.context.lastTriggerRunAt ?? null,
    },
    agenticMessageData: message.context.agenticMessageData ?? null,
    reactions: groupReactions(data.reactionsByMessage.get(message.id) ?? [], data.users),
  };
}

function userView(message: UserMessage, author: User | undefined): MessageUserView {
  const { context } = message;
  const fullName = author?.fullName ?? context.fullName ?? context.username;
  return {
    sId: author?.sId ?? '',
    id: message.userId,
    createdAt: author?.createdAt.getTime() ?? message.createdAt.getTime(),
    provider: author?.provider ?? null,
    username: author?.username ?? context.username,
    email: author?.email ?? context.email ?? '',
    firstName: author?.firstName ?? fullName,
    lastName: author?.lastName ?? '',
    fullName,
    image: author?.image ?? defaultPictureUrl(author?.sId ?? context.username),
  };
}

function groupReactions(
  reactions: { emoji: string; userId: number }[],
  users: Map<number, User>,
): ReactionView[] {
  const byEmoji = new Map<string, ReactionView>();
  for (const reaction of reactions) {
    const user = users.get(reaction.userId);
    if (!user) continue;
    const view = byEmoji.get(reaction.emoji) ?? { emoji: reaction.emoji, users: [] };
    view.users.push({ userId: user.sId, username: user.username, fullName: user.fullName });
    byEmoji.set(reaction.emoji, view);
  }
  return [...byEmoji.values()];
}
