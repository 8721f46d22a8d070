import { ApiSchema } from '@nestjs/swagger';

/** Dust's `RichMention`: an agent or a member a message may mention, as suggestions list them. */
@ApiSchema({ name: 'MentionSuggestion' })
export class RichMentionView {
  /**
   * The agent's configuration sId, or the member's user sId.
   * @example Ag4tB7nM1q
   */
  id!: string;
  /** @example agent */
  type!: 'agent' | 'user';
  /**
   * What follows `@`: the agent's name, the member's full name.
   * @example support-bot
   */
  label!: string;
  /** @example https://api.dicebear.com/9.x/bottts-neutral/svg?seed=support-bot */
  pictureUrl!: string;
  /**
   * The agent's description, the member's username.
   * @example Answers questions about refunds.
   */
  description!: string;
  /** Agents only: whether the caller marked it a favourite. */
  userFavorite?: boolean;
}

export class MentionSuggestionsResponse {
  suggestions!: RichMentionView[];
}

export class ParsedMentionsResponse {
  /**
   * The text with each `@name` of an agent the caller can mention as `:mention[name]{sId=…}`.
   * @example Hello :mention[support-bot]{sId=Ag4tB7nM1q}, can you check the refund policy?
   */
  markdown!: string;
}
