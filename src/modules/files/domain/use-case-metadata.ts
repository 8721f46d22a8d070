import { InvalidRequestError } from 'src/platform/errors/domain-error';
import type { FileUseCase, FileUseCaseMetadata } from 'src/modules/files/domain/file';

/** Which metadata keys each use case takes, and whether they are required. */
const KEYS: Record<FileUseCase, Partial<Record<keyof FileUseCaseMetadata, 'required' | 'optional'>>> = {
  conversation: { conversationId: 'optional' },
  avatar: {},
  tool_output: {},
  upsert_document: {},
  upsert_table: {},
  folders_document: { spaceId: 'required' },
};

/** The metadata a use case accepts: a required key must be there, a key of another use case is refused. */
export function checkUseCaseMetadata(
  useCase: FileUseCase,
  metadata: FileUseCaseMetadata = {},
): FileUseCaseMetadata {
  const keys = KEYS[useCase];
  const checked: FileUseCaseMetadata = {};
  for (const key of Object.keys(metadata) as (keyof FileUseCaseMetadata)[]) {
    if (metadata[key] === undefined) continue;
    if (!keys[key]) {
      throw new InvalidRequestError(`useCaseMetadata.${key}: not accepted for ${useCase} files.`);
    }
    checked[key] = metadata[key];
  }
  for (const [key, need] of Object.entries(keys)) {
    if (need === 'required' && checked[key as keyof FileUseCaseMetadata] === undefined) {
      throw new InvalidRequestError(`useCaseMetadata.${key}: required for ${useCase} files.`);
    }
  }
  return checked;
}
