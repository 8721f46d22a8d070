import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { markupElement } from 'src/platform/text/model-markup';
import { DocumentSearchService } from 'src/modules/data-sources/data-sources.api';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const COUNT_DEFAULT = 5;

/**
 * The most recent documents of the data source views the run's caller can read, whole, each in an
 * encoded `<document>` element (its text cannot close it); their restricted spaces go to the run's
 * data spaces.
 */
export function includeDataServer(search: DocumentSearchService, context: InternalToolContext): McpServer {
  const server = new McpServer({ name: 'include_data', version: '1.0.0' });
  server.registerTool(
    'include_data',
    {
      annotations: { readOnlyHint: true },
      description:
        'Returns the most recent documents of the data sources you can read, newest first, with their ' +
        'title, URL, date and text. Cite the title or URL of what you use.',
      inputSchema: {
        count: z.number().int().min(1).max(20).optional().describe('Documents to include (default 5).'),
      },
    },
    async ({ count }) => {
      const { documents, restrictedSpaceSIds } = await search.recentReadable(
        context.caller,
        count ?? COUNT_DEFAULT,
      );
      context.dataSpaces.add(restrictedSpaceSIds);
      if (documents.length === 0) return text('No document is available.');
      return text(
        documents
          .map((document, index) => {
            const source = document.sourceUrl ?? `document ${document.documentId}`;
            const date = new Date(document.timestamp).toISOString();
            return markupElement(
              'document',
              { index: String(index + 1), title: document.title, source, date },
              document.text,
            );
          })
          .join('\n\n'),
      );
    },
  );
  return server;
}
