/** What became of a tool call an agent message made, as the message shows it (the runtime makes the calls). */
export type ActionStatus = 'running' | 'succeeded' | 'failed' | 'blocked_validation_required' | 'denied';

export type ActionOutput = { type: 'text'; text: string }[];
