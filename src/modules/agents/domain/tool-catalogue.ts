/** The internal tool servers every workspace has, by the name a toolset entry uses. */
export const INTERNAL_MCP_SERVERS: readonly { name: string; description: string }[] = [
  { name: 'search', description: 'Semantic search over the data sources of the agent.' },
  { name: 'include_data', description: 'Includes the most recent documents of the data sources.' },
  { name: 'query_tables', description: 'Answers questions with SQL over structured tables.' },
  { name: 'extract_data', description: 'Extracts structured data from documents.' },
  { name: 'web_search_&_browse', description: 'Searches the web and reads pages.' },
  { name: 'image_generation', description: 'Generates images from a description.' },
  { name: 'run_agent', description: 'Calls another agent of the workspace.' },
  { name: 'reasoning', description: 'Delegates a hard problem to a reasoning model.' },
];

export function findInternalServer(name: string): { name: string; description: string } | undefined {
  return INTERNAL_MCP_SERVERS.find((server) => server.name === name);
}
