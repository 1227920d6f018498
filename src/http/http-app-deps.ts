import type { Logger } from 'pino';
import type { CompiledOperationRow } from '../../rest-compat/compile-routes.js';
import type { RouteTable } from '../../rest-compat/route-row.js';
import type { ServedDocument } from '../../rest-compat/routes/documents.js';
import type { AccessGate } from '../access/access-gate.js';
import type { AppConfig } from '../config/config.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import type { AgentSurface } from './mcp/agent-surface.js';
import type { OperatorMetricSources } from './observability/operator-metrics.js';

/** What the HTTP face of the service is built from (buildHttpApp). */
export interface HttpAppDeps {
  config: AppConfig;
  logger: Logger;
  gateway: InProcessGateway;
  table: RouteTable;
  operations: readonly CompiledOperationRow[];
  /** Document rows with the bytes rendered at start. */
  documents: readonly ServedDocument[];
  /** MCP tools and resources (POST /mcp). */
  agents: AgentSurface;
  access: AccessGate;
  contexts: GraphContextFactory;
  /** What /metrics reports beyond HTTP: the server's tallies, its sources, its store's outbox. */
  observed: Omit<OperatorMetricSources, 'operations'>;
}
