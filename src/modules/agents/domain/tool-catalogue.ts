/**
 * What an internal server needs to work: `nothing` beyond this service (its own data sources
 * included), a reasoning model on a configured provider, or a backend this service does not have.
 */
export type InternalServerNeed = 'nothing' | 'reasoning_model' | 'unsupported_backend';

export interface InternalServer {
  name: string;
  description: string;
  needs: InternalServerNeed;
}

/** The internal tool servers every workspace has, by the name a toolset entry uses. */
export const INTERNAL_MCP_SERVERS: readonly InternalServer[] = [
  {
    name: 'search',
    description: 'Full-text search over the documents of the data sources the caller can read.',
    needs: 'nothing',
  },
  {
    name: 'include_data',
    description: 'Includes the most recent documents of the data sources the caller can read.',
    needs: 'nothing',
  },
  {
    name: 'query_tables',
    description: 'Answers questions with SQL over structured tables.',
    needs: 'unsupported_backend',
  },
  {
    name: 'extract_data',
    description: 'Extracts structured data from documents.',
    needs: 'unsupported_backend',
  },
  {
    name: 'web_search_&_browse',
    description: 'Searches the web and reads pages.',
    needs: 'unsupported_backend',
  },
  {
    name: 'image_generation',
    description: 'Generates images from a description.',
    needs: 'unsupported_backend',
  },
  { name: 'run_agent', description: 'Calls another agent of the workspace.', needs: 'nothing' },
  {
    name: 'reasoning',
    description: 'Delegates a hard problem to a reasoning model.',
    needs: 'reasoning_model',
  },
  {
    name: 'wake_ups',
    description: 'Schedules and cancels wake-ups of this conversation.',
    needs: 'nothing',
  },
  {
    name: 'triggers',
    description: 'Creates, lists and disables schedules on which the agent runs itself.',
    needs: 'nothing',
  },
];

export function findInternalServer(name: string): InternalServer | undefined {
  return INTERNAL_MCP_SERVERS.find((server) => server.name === name);
}

/**
 * Why a known internal server is not offered, given the needs this service meets; null when it is.
 * The sentence ends with the code the toolset's skipped actions and the run's actions report.
 */
export function internalServerUnavailableReason(
  server: InternalServer,
  metNeeds: ReadonlySet<InternalServerNeed>,
): string | null {
  if (server.needs === 'nothing' || metNeeds.has(server.needs)) return null;
  return `The internal tool server "${server.name}" is not configured on this service (not_configured).`;
}
