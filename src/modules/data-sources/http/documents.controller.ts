import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { PageQuery } from 'src/platform/http/page-query';
import { ApiErrors } from 'src/platform/http/api-errors';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';
import { WorkspaceController } from 'src/platform/http/api-families';
import { DocumentsService } from 'src/modules/data-sources/application/documents.service';
import {
  DataSourceParams,
  DocumentParams,
  UpsertDocumentDto,
} from 'src/modules/data-sources/http/dto/documents.dto';
import { renderDataSource } from 'src/modules/data-sources/application/views/data-source.view';
import {
  DeletedDocumentResponse,
  DocumentResponse,
  DocumentsResponse,
  UpsertedDocumentResponse,
  renderDocument,
  renderListedDocument,
} from 'src/modules/data-sources/application/views/document.view';

const DEFAULT_PAGE = 50;

/** The documents of a data source, under the space that owns it (public `/api/v1` family). */
@ApiTags('data sources')
@WorkspaceController('spaces/:spaceId/data_sources/:dsId/documents', { families: ['public'] })
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Post(':documentId')
  @HttpCode(200)
  @Auth({ scopes: ['write:data_source'] })
  @ApiOperation({
    summary: 'Upsert a document',
    description:
      'Inserts or replaces the document of that id, with its chunks and search index, in one transaction. ' +
      'Any member who can access the space that owns the data source, with `write:data_source`. ' +
      'Over a limit (text size, documents per data source, tags, parents) the answer is 400 naming it. ' +
      'The body may be up to 3 × DOCUMENT_MAX_TEXT_BYTES + 1 MiB (every other route: 1 MiB); a larger one is 413.',
  })
  @ApiBody({
    type: UpsertDocumentDto,
    examples: {
      text: {
        summary: 'Plain text with a source and tags',
        value: {
          title: 'Refund policy',
          text: 'Customers may ask for a refund within 30 days of purchase.',
          source_url: 'https://intranet.example.com/policies/refunds',
          tags: ['policy', 'billing'],
          mime_type: 'text/markdown',
        },
      },
      file: {
        summary: 'The extracted text of an uploaded file (use case `upsert_document`)',
        value: { fileId: 'fil_Xq3Lm8Vb2T', tags: ['policy'] },
      },
    },
  })
  @ApiOkResponse({ type: UpsertedDocumentResponse })
  @ApiErrors(400, 404, 413)
  async upsert(
    @CurrentCaller() caller: Caller,
    @Param() params: DocumentParams,
    @Body() body: UpsertDocumentDto,
  ): Promise<UpsertedDocumentResponse> {
    const { document, dataSource } = await this.documents.upsert(
      caller,
      params.spaceId,
      params.dsId,
      params.documentId,
      {
        title: body.title,
        text: body.text,
        section: body.section,
        fileId: body.fileId,
        sourceUrl: body.source_url,
        tags: body.tags,
        parents: body.parents,
        mimeType: body.mime_type,
        timestamp: body.timestamp,
      },
    );
    return {
      document: renderDocument(dataSource.sId, document, body.light_document_output === true),
      data_source: renderDataSource(dataSource),
    };
  }

  @Get()
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'List documents',
    description:
      'The documents of the data source, oldest first, without their text, a page at a time. Any member ' +
      'who can access the space that owns the data source, with `read:data_source`.',
  })
  @ApiOkResponse({ type: DocumentsResponse })
  @ApiErrors(400, 404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: DataSourceParams,
    @Query() query: PageQuery,
  ): Promise<DocumentsResponse> {
    const page = await this.documents.list(caller, params.spaceId, params.dsId, {
      afterId: query.cursor === undefined ? 0 : decodeCursor(query.cursor),
      limit: query.limit ?? DEFAULT_PAGE,
    });
    return {
      documents: page.documents.map((document) => renderListedDocument(params.dsId, document)),
      nextCursor: page.next === null ? null : encodeCursor(page.next),
      total: page.total,
    };
  }

  @Get(':documentId')
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'Get a document',
    description:
      'A document with its text. Any member who can access the space that owns the data source, with ' +
      '`read:data_source`.',
  })
  @ApiOkResponse({ type: DocumentResponse })
  @ApiErrors(400, 404)
  async get(@CurrentCaller() caller: Caller, @Param() params: DocumentParams): Promise<DocumentResponse> {
    const document = await this.documents.get(caller, params.spaceId, params.dsId, params.documentId);
    return { document: renderDocument(params.dsId, document) };
  }

  @Delete(':documentId')
  @Auth({ scopes: ['write:data_source'] })
  @ApiOperation({
    summary: 'Delete a document',
    description:
      'Deletes a document and its search index. Any member who can access the space that owns the data ' +
      'source, with `write:data_source`.',
  })
  @ApiOkResponse({ type: DeletedDocumentResponse })
  @ApiErrors(400, 404)
  async delete(
    @CurrentCaller() caller: Caller,
    @Param() params: DocumentParams,
  ): Promise<DeletedDocumentResponse> {
    await this.documents.delete(caller, params.spaceId, params.dsId, params.documentId);
    return { document: { document_id: params.documentId } };
  }
}
