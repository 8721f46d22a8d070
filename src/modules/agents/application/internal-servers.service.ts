import { Injectable } from '@nestjs/common';
import {
  INTERNAL_MCP_SERVERS,
  InternalServer,
  InternalServerNeed,
  findInternalServer,
  internalServerUnavailableReason,
} from 'src/modules/agents/domain/tool-catalogue';
import { AgentsConfig } from 'src/modules/agents/agents.config';

/** An internal server as the listing of tool servers shows it. */
export interface InternalServerAvailability {
  name: string;
  description: string;
  available: boolean;
  /** Null when available; else why not, ending with its code (`not_configured`). */
  unavailableReason: string | null;
}

/** Which internal tool servers this service offers, from its configuration. */
@Injectable()
export class InternalServersService {
  private readonly metNeeds: ReadonlySet<InternalServerNeed>;

  constructor(config: AgentsConfig) {
    const met = new Set<InternalServerNeed>();
    // `reasoning` delegates to a model of the openai provider, so it needs both the model and the provider.
    if (config.reasoningModelId !== null && config.openai !== null) met.add('reasoning_model');
    this.metNeeds = met;
  }

  /** Null when the named internal server works here; else a sentence saying why not, ending with its code. */
  unavailableReason(name: string): string | null {
    const server = findInternalServer(name);
    if (!server) return `No internal tool server is named "${name}" (unknown_server).`;
    return this.reasonFor(server);
  }

  reasonFor(server: InternalServer): string | null {
    return internalServerUnavailableReason(server, this.metNeeds);
  }

  /** The whole internal catalogue, each entry saying whether it is offered here. */
  list(): InternalServerAvailability[] {
    return INTERNAL_MCP_SERVERS.map((server) => {
      const reason = this.reasonFor(server);
      return {
        name: server.name,
        description: server.description,
        available: reason === null,
        unavailableReason: reason,
      };
    });
  }
}
