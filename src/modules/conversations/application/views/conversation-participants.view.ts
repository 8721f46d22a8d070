import { ApiSchema } from '@nestjs/swagger';
import type { ParticipantAction } from 'src/modules/conversations/application/ports/conversation.repository';

@ApiSchema({ name: 'UserParticipant' })
export class UserParticipantView {
  /** @example Us4kD9wQ2n */
  sId!: string;
  /** @example "Ada Lovelace" */
  fullName!: string;
  /** @example ada */
  username!: string;
  /** @example ada@example.com */
  email!: string;
  pictureUrl!: string | null;
  /** The same picture as `pictureUrl`. */
  image!: string | null;
  /** `posted` a message, else `reacted` to one, else `subscribed` (follows it). */
  action!: ParticipantAction;
}

@ApiSchema({ name: 'AgentParticipant' })
export class AgentParticipantView {
  /** @example Ag7mP3xR8c */
  configurationId!: string;
  /** @example summarizer */
  name!: string;
  pictureUrl!: string;
}

/** Who takes part in a conversation, as Dust's `ConversationParticipantsType` lists them. */
@ApiSchema({ name: 'ConversationParticipants' })
export class ConversationParticipantsView {
  users!: UserParticipantView[];
  agents!: AgentParticipantView[];
}

export class ParticipantsResponse {
  participants!: ConversationParticipantsView;
}
