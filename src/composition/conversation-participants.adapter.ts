import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConversationParticipants } from 'src/modules/agents/agents.api';
import { ParticipantsService } from 'src/modules/conversations/conversations.api';

/** A conversation's participants, as mention suggestions rank them, from the conversations that own them. */
@Injectable()
export class ConversationParticipantsAdapter extends ConversationParticipants {
  constructor(private readonly participants: ParticipantsService) {
    super();
  }

  async idsOf(caller: Caller, conversationSId: string): Promise<Set<string>> {
    const { users, agents } = await this.participants.list(caller, conversationSId);
    return new Set([...users.map((user) => user.sId), ...agents.map((agent) => agent.configurationId)]);
  }
}
