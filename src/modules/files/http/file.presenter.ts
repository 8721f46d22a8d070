import type { FileView } from 'src/modules/files/application/views/file.view';
import type { FileRecord } from 'src/modules/files/domain/file';
import type { FileUrls } from 'src/modules/files/http/file-urls';

export function presentFile(file: FileRecord, workspaceSId: string, urls: FileUrls): FileView {
  const ready = file.status === 'ready';
  return {
    sId: file.sId,
    id: file.sId,
    contentType: file.contentType,
    fileName: file.fileName,
    fileSize: file.fileSize,
    status: file.status,
    useCase: file.useCase,
    ...(file.status === 'created' && { uploadUrl: urls.uploadUrl(workspaceSId, file) }),
    version: file.version,
    ...(ready && { downloadUrl: urls.downloadUrl(workspaceSId, file) }),
    ...(ready && file.useCase === 'avatar' && { publicUrl: urls.publicUrl(workspaceSId, file) }),
    path: urls.path(workspaceSId, file),
    useCaseMetadata: { ...file.useCaseMetadata },
    owner: file.ownerSId,
  };
}
