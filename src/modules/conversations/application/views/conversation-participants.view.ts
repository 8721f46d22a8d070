import type { ParticipantAction } from 'src/modules/conversations/application/ports/conversation.repository';

export interface UserParticipantView {
  sId: string;
  fullName: string;
  username: string;
  email: string;
  pictureUrl: string | null;
  /** The same picture under the name the API's other user objects give it. */
  image: string | null;
  action: ParticipantAction;
}

export interface AgentParticipantView {
  configurationId: string;
  name: string;
  pictureUrl: string;
}

/** Who takes part in a conversation, as Dust's `ConversationParticipantsType` lists them. */
export interface ConversationParticipantsView {
  users: UserParticipantView[];
  agents: AgentParticipantView[];
}
