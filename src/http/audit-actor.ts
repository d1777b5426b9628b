// Who a request acts as, for the audit trail: the authenticated account (if any), the client's
// address (after Settings:TrustProxy) and the request id that ties the row to the log lines.
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../audit/audit-actions.js';

export function actorOf(request: FastifyRequest): AuditActor {
  const p = request.principal;
  return {
    username: p ? p.account.username : null,
    userId: p ? p.account.id : null,
    client: request.ip,
    via: p ? p.via : null,
    requestId: String(request.id),
  };
}
