/** Dust's `RichMention`: an agent or a member a message may mention, as suggestions list them. */
export interface RichMentionView {
  /** The agent's configuration sId, or the member's user sId. */
  id: string;
  type: 'agent' | 'user';
  /** What follows `@`: the agent's name, the member's full name. */
  label: string;
  pictureUrl: string;
  /** The agent's description, the member's username. */
  description: string;
  /** Agents only: whether the caller marked it a favourite. */
  userFavorite?: boolean;
}
