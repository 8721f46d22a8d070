import { DomainError } from 'src/platform/errors/domain-error';

export class FileNotFound extends DomainError {
  constructor(fileSId: string) {
    super('file_not_found', `File ${fileSId} not found.`);
  }
}

export class FileTooLarge extends DomainError {
  constructor(message: string) {
    super('file_too_large', message);
  }
}

export class FileTypeNotSupported extends DomainError {
  constructor(message: string) {
    super('file_type_not_supported', message);
  }
}

export class FileIsEmpty extends DomainError {
  constructor(message = 'The file is empty: it has no bytes.') {
    super('file_is_empty', message);
  }
}
