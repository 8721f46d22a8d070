import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { FilesService, FilesConfig } from 'src/modules/files/files.api';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { SpacesService } from 'src/modules/identity/identity.api';
import { chunkAndHash } from 'src/modules/data-sources/application/document-chunking';
import { DataSourcesConfig } from 'src/modules/data-sources/data-sources.config';
import { DocumentIndex } from 'src/modules/data-sources/application/ports/document-index';
import {
  DocumentRepository,
  DocumentSummary,
} from 'src/modules/data-sources/application/ports/document.repository';
import { DataSourceRepository } from 'src/modules/data-sources/application/ports/data-source.repository';
import type { DataSource } from 'src/modules/data-sources/domain/data-source';
import {
  DataSourceNotFound,
  DocumentLimitReached,
  DocumentNotFound,
} from 'src/modules/data-sources/domain/data-sources.errors';
import {
  DataSourceDocument,
  DocumentInput,
  checkDocument,
  checkDocumentId,
} from 'src/modules/data-sources/domain/document';

/** The documents of a data source, reached through the space that owns it. */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly dataSources: DataSourceRepository,
    private readonly documents: DocumentRepository,
    private readonly index: DocumentIndex,
    private readonly spaces: SpacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: DataSourcesConfig,
    private readonly filesConfig: FilesConfig,
    private readonly files: FilesService,
  ) {}

  /**
   * Inserts or replaces a document, its chunks and their index entries in one transaction. A new
   * document counts against the data source's limit, however many are created at once.
   */
  async upsert(
    caller: Caller,
    spaceSId: string,
    dataSourceSId: string,
    documentId: string,
    input: DocumentInput,
  ): Promise<{ document: DataSourceDocument; dataSource: DataSource }> {
    const dataSource = await this.dataSourceInSpace(caller, spaceSId, dataSourceSId);
    const limits = { ...this.config, maxTextBytes: this.filesConfig.documentMaxTextBytes };
    const valid = checkDocument(documentId, await this.withFileText(caller, input), limits, this.clock.now());
    const { chunks, hash } = await chunkAndHash(valid.text);
    const document = await this.unitOfWork.run(async () => {
      const { workspaceId } = caller;
      const { document: stored, withinLimit } = await this.documents.upsert(
        workspaceId,
        dataSource.id,
        { ...valid, hash, chunkCount: chunks.length },
        limits.maxPerDataSource,
      );
      // Over the limit, the transaction rolls back: nothing of this upsert is written.
      if (!withinLimit) throw new DocumentLimitReached(limits.maxPerDataSource);
      await this.index.index(workspaceId, stored, dataSource.textSearchConfig, chunks);
      return stored;
    });
    return { document, dataSource };
  }

  /**
   * A `fileId` upsert takes the file's extracted text (and, unless given, its name and type): a
   * ready file of use case `upsert_document`, given instead of `text` and `section`.
   */
  private async withFileText(caller: Caller, input: DocumentInput): Promise<DocumentInput> {
    if (input.fileId === undefined || input.fileId === null) return input;
    if ((input.text ?? null) !== null || (input.section ?? null) !== null)
      throw new InvalidRequestError('text, section, fileId: give exactly one of them.');
    const { file, text } = await this.files.extractedText(caller, input.fileId);
    if (file.useCase !== 'upsert_document')
      throw new InvalidRequestError(
        `fileId: file ${input.fileId} has use case ${file.useCase}; only an upsert_document file can be upserted.`,
      );
    if (text === null) throw new InvalidRequestError(`fileId: file ${input.fileId} has no text to upsert.`);
    return {
      ...input,
      fileId: null,
      text,
      title: input.title ?? file.fileName,
      mimeType: input.mimeType ?? file.contentType,
    };
  }

  async get(
    caller: Caller,
    spaceSId: string,
    dataSourceSId: string,
    documentId: string,
  ): Promise<DataSourceDocument> {
    const dataSource = await this.dataSourceInSpace(caller, spaceSId, dataSourceSId);
    const document = await this.documents.find(
      caller.workspaceId,
      dataSource.id,
      checkDocumentId(documentId),
    );
    if (!document) throw new DocumentNotFound(documentId);
    return document;
  }

  /** A page of documents in creation order, after the row `afterId`; `next` is null on the last page. */
  async list(
    caller: Caller,
    spaceSId: string,
    dataSourceSId: string,
    page: { afterId: number; limit: number },
  ): Promise<{ documents: DocumentSummary[]; next: number | null; total: number }> {
    const dataSource = await this.dataSourceInSpace(caller, spaceSId, dataSourceSId);
    const [rows, total] = await Promise.all([
      this.documents.list(caller.workspaceId, dataSource.id, {
        afterId: page.afterId,
        limit: page.limit + 1,
      }),
      this.documents.count(caller.workspaceId, dataSource.id),
    ]);
    const documents = rows.slice(0, page.limit);
    return { documents, next: rows.length > page.limit ? documents[documents.length - 1].id : null, total };
  }

  async delete(caller: Caller, spaceSId: string, dataSourceSId: string, documentId: string): Promise<void> {
    const dataSource = await this.dataSourceInSpace(caller, spaceSId, dataSourceSId);
    if (!(await this.documents.delete(caller.workspaceId, dataSource.id, checkDocumentId(documentId)))) {
      throw new DocumentNotFound(documentId);
    }
  }

  /** The data source owned by a space the caller can access; anything else is "not found". */
  private async dataSourceInSpace(
    caller: Caller,
    spaceSId: string,
    dataSourceSId: string,
  ): Promise<DataSource> {
    const space = await this.spaces.findAccessible(caller, spaceSId);
    const dataSource = await this.dataSources.findDataSourceOwnedBy(
      caller.workspaceId,
      space.id,
      dataSourceSId,
    );
    if (!dataSource) throw new DataSourceNotFound(dataSourceSId);
    return dataSource;
  }
}
