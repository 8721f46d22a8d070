import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AgentsService } from 'src/modules/agents/agents.api';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type { ConversationParticipantsView } from 'src/modules/conversations/application/views/conversation-participants.view';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';

@Injectable()
export class ParticipantsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly conversationRepository: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly workspaces: WorkspacesService,
    private readonly agents: AgentsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * The members who posted, reacted or follow (first comers first), and the agents that answered
   * (in the order they first did), for any reader of the conversation.
   */
  async list(caller: Caller, sId: string): Promise<ConversationParticipantsView> {
    const conversation = await this.conversations.get(caller, sId);
    const [people, agentSIds] = await this.unitOfWork.all([
      () => this.conversationRepository.listParticipants(caller.workspaceId, conversation.id),
      () => this.messages.agentsOf(caller.workspaceId, conversation.id),
    ]);
    const [users, agents] = await this.unitOfWork.all([
      () => this.workspaces.usersByIds(people.map((person) => person.userId)),
      () => this.agents.describe(caller, agentSIds),
    ]);
    const usersById = new Map(users.map((user) => [user.id, user]));
    const agentsBySId = new Map(agents.map((details) => [details.agent.sId, details.agent]));
    return {
      users: people.flatMap(({ userId, action }) => {
        const user = usersById.get(userId);
        if (!user) return [];
        const { sId: userSId, fullName, username, email, image } = user;
        return [{ sId: userSId, fullName, username, email, pictureUrl: image, image, action }];
      }),
      agents: agentSIds.map((configurationId) => {
        const agent = agentsBySId.get(configurationId);
        return {
          configurationId,
          name: agent?.name ?? configurationId,
          pictureUrl: agent?.pictureUrl ?? defaultPictureUrl(configurationId),
        };
      }),
    };
  }
}
