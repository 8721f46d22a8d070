import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { markupElement } from 'src/platform/text/model-markup';
import { DocumentHit, DocumentSearchService } from 'src/modules/data-sources/data-sources.api';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const TOP_K_DEFAULT = 8;

/**
 * Each document as a citable element, its title and URL as attributes and the passages that
 * matched as its text (a blank line between them), all encoded: a document cannot close its element or pass for another.
 */
export function citeDocuments(documents: DocumentHit[]): string {
  return documents
    .map((document, index) => {
      const source = document.sourceUrl ?? `document ${document.documentId}`;
      const passages = document.chunks.map((chunk) => chunk.text).join('\n\n');
      return markupElement('document', { index: String(index + 1), title: document.title, source }, passages);
    })
    .join('\n\n');
}

/**
 * Full-text search of the documents of every data source view the run's caller can read; the
 * restricted spaces of what it returns go to the run's data spaces.
 */
export function searchServer(search: DocumentSearchService, context: InternalToolContext): McpServer {
  const server = new McpServer({ name: 'search', version: '1.0.0' });
  server.registerTool(
    'search',
    {
      annotations: { readOnlyHint: true },
      description:
        'Searches the documents of the data sources you can read and returns the best passages, each ' +
        'in a <document> element with its title and URL. Cite the title or URL of what you use. Quote a phrase with "…", ' +
        'exclude a word with -word.',
      inputSchema: {
        query: z
          .string()
          .min(1)
          .max(1000)
          .describe('What to look for, in the words the documents would use.'),
        topK: z.number().int().min(1).max(64).optional().describe('Passages to return (default 8).'),
      },
    },
    async ({ query, topK }) => {
      const { documents, restrictedSpaceSIds } = await search.searchReadable(
        context.caller,
        query,
        topK ?? TOP_K_DEFAULT,
      );
      context.dataSpaces.add(restrictedSpaceSIds);
      return text(documents.length === 0 ? `No document matches "${query}".` : citeDocuments(documents));
    },
  );
  return server;
}
