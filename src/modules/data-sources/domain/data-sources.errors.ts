import { ConflictError, DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';

export class DataSourceViewNotFound extends DomainError {
  constructor(reference: string) {
    super('data_source_view_not_found', `Data source view ${reference} not found in this space.`);
  }
}

/** The data source is named in the request body, so an unknown one is a bad request, not a missing route. */
export class UnknownDataSource extends InvalidRequestError {
  constructor(reference: string) {
    super(`dataSourceId: no data source ${reference} in this workspace.`);
  }
}

export class DataSourceNameTaken extends ConflictError {
  constructor(name: string) {
    super(`A data source named "${name}" already exists in this workspace.`);
  }
}

export class DataSourceAlreadyInSpace extends ConflictError {
  /** The sIds, when known: a write that lost a race only learns it from the index. */
  constructor(sIds?: { dataSource: string; space: string }) {
    super(
      sIds
        ? `Data source ${sIds.dataSource} already has a view in space ${sIds.space}.`
        : 'The data source already has a view in this space.',
    );
  }
}

export class UnknownTextSearchConfig extends InvalidRequestError {
  constructor(name: string) {
    super(`textSearchConfig: PostgreSQL has no text-search configuration "${name}" (see pg_ts_config).`);
  }
}

/** A data source is reached through the space that owns it; any other is "not found". */
export class DataSourceNotFound extends DomainError {
  constructor(reference: string) {
    super('data_source_not_found', `Data source ${reference} not found in this space.`);
  }
}

export class DocumentNotFound extends DomainError {
  constructor(documentId: string) {
    super('data_source_document_not_found', `Document "${documentId}" not found in this data source.`);
  }
}

export class DocumentLimitReached extends InvalidRequestError {
  constructor(max: number) {
    super(`The data source already holds ${max} documents (DOCUMENTS_PER_DATA_SOURCE_MAX).`);
  }
}

/** A fragment names a view the caller cannot read through: it may not exist, or be another's. */
export class FragmentViewNotFound extends DomainError {
  constructor(viewSId: string) {
    super(
      'data_source_view_not_found',
      `nodeDataSourceViewId: data source view ${viewSId} not found in the spaces you can access.`,
    );
  }
}

/** A fragment names a document its view does not show (absent, or outside the view's parents). */
export class FragmentDocumentNotFound extends DomainError {
  constructor(documentId: string, viewSId: string) {
    super(
      'data_source_document_not_found',
      `nodeId: document "${documentId}" not found in data source view ${viewSId}, or outside the parents it shows.`,
    );
  }
}
