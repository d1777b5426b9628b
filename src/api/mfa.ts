// The caller's second factors (docs/api.md, Second factor): TOTP enrolment, confirmation and
// removal, recovery codes; and an administrator's reset of a user's factors.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeOf, ErrorEnvelope, authSecurity, sendEnvelope, standardErrors } from '../http/envelope.js';
import { requireOwnAccountAction } from '../auth/own-account-actions.js';
import type { MfaService } from '../auth/mfa-service.js';
import { actorOf } from '../http/audit-actor.js';
import { Username } from '../accounts/account-shapes.js';

const tags = ['mfa'];
const security = authSecurity;
const errors = { ...standardErrors, 409: ErrorEnvelope };

export const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'the 6-digit code the app shows' });

const StatusAnswer = EnvelopeOf(
  Type.Object({
    totp: Type.Union([Type.Literal('none'), Type.Literal('pending'), Type.Literal('confirmed')], {
      description: 'pending: enrolled, waiting for the first code',
    }),
    recovery_codes_left: Type.Integer(),
  }),
);
const EnrolAnswer = EnvelopeOf(
  Type.Object({
    uri: Type.String({ description: 'the otpauth:// URI an authenticator app enrols from' }),
    secret: Type.String({ description: 'the secret, base32, for typing in by hand' }),
    qr_svg: Type.String({ description: 'the URI as a QR code, an SVG document' }),
  }),
);
const RecoveryCodesAnswer = EnvelopeOf(
  Type.Object({
    recovery_codes: Type.Array(Type.String(), { description: 'shown this once; each works once' }),
  }),
);
const DoneAnswer = EnvelopeOf(Type.Object({ username: Type.String() }));

export const mfaRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  app.get('/api/core/account/mfa', {
    config: { mfaEnrolmentExempt: true },
    schema: {
      tags,
      security,
      summary: "The caller's second factors",
      response: { 200: StatusAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const caller = requireOwnAccountAction(request.principal, 'read_factors');
      const s = await mfa.status(mfa.db, caller.account.id);
      return sendEnvelope(reply, { totp: s.totp, recovery_codes_left: s.recoveryCodesLeft }, 'second factors');
    },
  });

  app.post('/api/core/account/mfa/totp', {
    config: { mfaEnrolmentExempt: true, stepUp: true },
    schema: {
      tags,
      security,
      summary: 'Start a TOTP enrolment: a new secret, pending until confirmed by a first code',
      response: { 200: EnrolAnswer, ...errors },
    },
    handler: async (request, reply) => {
      const caller = requireOwnAccountAction(request.principal, 'manage_factors');
      const e = await mfa.enrolTotp(caller.account, actorOf(request));
      return sendEnvelope(reply, { uri: e.uri, secret: e.secret, qr_svg: e.qrSvg }, 'scan the code, then confirm');
    },
  });

  app.post('/api/core/account/mfa/totp/confirm', {
    config: { mfaEnrolmentExempt: true, stepUp: true },
    schema: {
      tags,
      security,
      summary: 'Confirm the TOTP enrolment with a first code; answers the recovery codes',
      body: Type.Object({ code: TotpCode }, { additionalProperties: false }),
      response: { 200: RecoveryCodesAnswer, ...errors },
    },
    handler: async (request, reply) => {
      const caller = requireOwnAccountAction(request.principal, 'manage_factors');
      const codes = await mfa.confirmTotp(caller.account, request.body.code, actorOf(request));
      return sendEnvelope(reply, { recovery_codes: codes }, 'TOTP set up; keep the recovery codes');
    },
  });

  app.delete('/api/core/account/mfa/totp', {
    config: { stepUp: true },
    schema: {
      tags,
      security,
      summary: 'Remove the TOTP factor (and the recovery codes with it)',
      response: { 200: DoneAnswer, ...errors },
    },
    handler: async (request, reply) => {
      const caller = requireOwnAccountAction(request.principal, 'manage_factors');
      await mfa.removeTotp(caller.account, actorOf(request));
      return sendEnvelope(reply, { username: caller.account.username }, 'TOTP removed');
    },
  });

  app.post('/api/core/account/mfa/recovery-codes', {
    config: { stepUp: true },
    schema: {
      tags,
      security,
      summary: 'New recovery codes in place of the old ones',
      response: { 200: RecoveryCodesAnswer, ...errors },
    },
    handler: async (request, reply) => {
      const caller = requireOwnAccountAction(request.principal, 'manage_factors');
      const codes = await mfa.regenerateRecoveryCodes(caller.account, actorOf(request));
      return sendEnvelope(reply, { recovery_codes: codes }, 'new recovery codes; the old ones no longer work');
    },
  });

  app.post('/api/core/account/mfa/reset/:username', {
    config: { roles: ['sys_administrator'], stepUp: true },
    schema: {
      tags,
      security,
      summary: "Remove a user's second factors and recovery codes, and end the user's sessions",
      params: Type.Object({ username: Username }),
      response: { 200: DoneAnswer, ...errors },
    },
    handler: async (request, reply) => {
      const account = await mfa.reset(request.params.username, actorOf(request));
      return sendEnvelope(reply, { username: account.username }, 'second factors reset');
    },
  });
};
