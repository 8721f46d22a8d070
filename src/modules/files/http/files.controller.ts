import {
  Body,
  Delete,
  Get,
  HttpCode,
  Logger,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Auth, CurrentCaller, Public } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { AllowSignedUrl, CurrentAccess } from 'src/platform/auth/signed-url.decorators';
import type { SignedUrlGrant } from 'src/platform/auth/url-signer';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { WorkspaceParams } from 'src/platform/http/route-params';
import { sendError } from 'src/platform/http/send-json';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { FileContent, FilesService } from 'src/modules/files/application/files.service';
import type { FileRecord } from 'src/modules/files/domain/file';
import { contentDisposition } from 'src/modules/files/http/content-disposition';
import { CreateFileDto, FileParams, FileQuery } from 'src/modules/files/http/dto/file.dto';
import { FileUrls } from 'src/modules/files/http/file-urls';
import { FileResponse, renderFile } from 'src/modules/files/application/views/file.view';
import { FILE_PART, MultipartUpload } from 'src/modules/files/http/multipart-upload';

const BINARY = { schema: { type: 'string', format: 'binary' } };

@ApiTags('files')
@WorkspaceController('files')
export class FilesController {
  private readonly logger = new Logger(FilesController.name);

  constructor(
    private readonly files: FilesService,
    private readonly urls: FileUrls,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['write:file'] })
  @ApiOperation({
    summary: 'Create a file record and its signed upload URL (endpoint 5).',
    description:
      'Any member, with `write:file`. The file starts `created`; its content goes to `uploadUrl` ' +
      '(POST multipart, field `file`) before the URL expires. A `conversation` file names a ' +
      'conversation the caller can read, a `folders_document` file a space the caller can access. ' +
      'Creations per workspace and minute are limited (429).',
  })
  @ApiOkResponse({ type: FileResponse, description: 'The created file, with its upload URL.' })
  @ApiErrors(400, 404, 429)
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: WorkspaceParams,
    @Body() body: CreateFileDto,
  ): Promise<FileResponse> {
    return this.present(params.wId, await this.files.create(caller, body));
  }

  @Post(':fileId')
  @HttpCode(200)
  @Auth({ scopes: ['write:file'] })
  @AllowSignedUrl()
  @ApiOperation({
    summary: "Upload a file's content (endpoint 6).",
    description:
      "The file's `uploadUrl` (its signature is the credential), or its path with a key, with " +
      '`write:file`, of a member who can read the file. One multipart part named `file`, at most the ' +
      'declared `fileSize`; the file becomes `ready` (or `failed` when its text cannot be extracted). ' +
      'A PDF or DOCX past a parsing limit (PDF_MAX_PAGES, DOCX_MAX_UNZIPPED_MB, DOCUMENT_PARSE_TIMEOUT_MS, ' +
      'DOCUMENT_PARSE_HEAP_MB) is 400 `file_too_large` naming it; a longer text than its use case can use ' +
      'is kept cut, with a note saying so.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: [FILE_PART], properties: { [FILE_PART]: BINARY.schema } },
  })
  @ApiOkResponse({ type: FileResponse, description: 'The file, now ready.' })
  @ApiErrors(400, 404)
  async upload(
    @CurrentAccess() access: Caller | SignedUrlGrant,
    @Param() params: FileParams,
    @Req() request: IncomingMessage,
  ): Promise<FileResponse> {
    const file = await this.files.upload(access, params.wId, params.fileId, new MultipartUpload(request));
    return this.present(params.wId, file);
  }

  @Get(':fileId')
  @Auth({ scopes: ['read:file'] })
  @ApiOperation({
    summary: 'Get a file record, or its content with `action=download` or `action=view`.',
    description:
      '`action=download` answers the content as an attachment; `action=view` (with `version=original`, ' +
      "as Dust's `getFileContent` asks) answers it inline; `version` without `action=view` is 400. " +
      'A file of a space (`useCaseMetadata.spaceId`) is readable by the members of that space; a ' +
      'file of a conversation (`useCaseMetadata.conversationId`) by those who can read that ' +
      'conversation. Anyone else gets 404 `file_not_found`, for the record and the content alike.',
  })
  @ApiExtraModels(FileResponse)
  @ApiOkResponse({
    description: 'The file record; with `action=download` or `action=view`, its content.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(FileResponse) } },
      'application/octet-stream': BINARY,
    },
  })
  @ApiErrors(400, 404)
  async get(
    @CurrentCaller() caller: Caller,
    @Param() params: FileParams,
    @Query() query: FileQuery,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<FileResponse | StreamableFile> {
    if (query.version !== undefined && query.action !== 'view') {
      throw new InvalidRequestError('version: only with action=view.');
    }
    if (query.action === 'download' || query.action === 'view') {
      const disposition = query.action === 'view' ? 'inline' : 'attachment';
      return this.stream(await this.files.download(caller, params.fileId), disposition, res);
    }
    return this.present(params.wId, await this.files.get(caller, params.fileId));
  }

  @Delete(':fileId')
  @HttpCode(204)
  @Auth({ scopes: ['write:file'] })
  @ApiOperation({
    summary: 'Delete a file and its content.',
    description:
      'The member who created the file, or an admin, with `write:file` (403 otherwise). Content ' +
      'fragments keep the text already extracted from it.',
  })
  @ApiNoContentResponse({ description: 'The file and its content are deleted.' })
  @ApiErrors(403, 404)
  async delete(@CurrentCaller() caller: Caller, @Param() params: FileParams): Promise<void> {
    await this.files.delete(caller, params.fileId);
  }

  @Get(':fileId/public')
  @Public()
  @ApiOperation({
    summary: 'Read a ready avatar image, without a key.',
    description:
      'Anyone, without a key: only files of use case `avatar` that are `ready`; any other file is 404 ' +
      '`file_not_found`, so nothing else of a workspace is reachable here.',
  })
  @ApiOkResponse({ description: 'The image of a ready avatar, to anyone.', content: { 'image/*': BINARY } })
  @ApiErrors(404)
  async avatar(
    @Param() params: FileParams,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<StreamableFile> {
    res.setHeader('Cache-Control', 'public, max-age=300');
    return this.stream(await this.files.readAvatar(params.wId, params.fileId), 'inline', res);
  }

  private present(workspaceSId: string, file: FileRecord): FileResponse {
    return { file: renderFile(file, workspaceSId, this.urls) };
  }

  private stream(
    { file, content }: FileContent,
    kind: 'attachment' | 'inline',
    res: ServerResponse,
  ): StreamableFile {
    // Uploaded content is never run as a page of this origin, whatever it holds.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    return new StreamableFile(content, {
      type: file.contentType,
      length: file.fileSize,
      disposition: contentDisposition(kind, file.fileName),
    })
      .setErrorLogger((error: unknown) =>
        this.logger.error({ err: error, file: file.sId }, 'Reading the content of a file failed'),
      )
      .setErrorHandler(() => {
        // Cut midway, the connection is closed, which tells the client the file is incomplete.
        if (res.headersSent) res.destroy();
        else sendError(res, 500, 'internal_server_error', 'The content of this file could not be read.');
      });
  }
}
