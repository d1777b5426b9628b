// The account routes' answers: the account shapes (accounts/account-shapes.ts) in the envelope.
import { Type } from 'typebox';
import { EnvelopeOf } from '../http/envelope.js';
import { AccountListItemSchema, ProfileTeamSchema, ProfileUserSchema } from '../accounts/account-shapes.js';

export const ProfileAnswer = EnvelopeOf(
  Type.Object({
    instance: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'kv.v.api.version, kv.v.api.url, kv.v.owner.name' }),
    ),
    user: ProfileUserSchema,
    teams: Type.Optional(Type.Array(ProfileTeamSchema)),
    roles: Type.Optional(Type.Array(Type.String())),
    apps: Type.Optional(Type.Array(Type.String())),
  }),
);

export const AccountItemAnswer = EnvelopeOf(Type.Object({ item: AccountListItemSchema }));

export const DirectoryStatsSchema = Type.Object({
  count: Type.Integer({ description: 'all accounts' }),
  locked: Type.Integer({ description: 'locked now' }),
  last_week: Type.Integer({ description: 'active in the last 7 days' }),
  today: Type.Integer({ description: 'active since 00:00 UTC' }),
});

export const DirectoryAnswer = EnvelopeOf(
  Type.Object({ items: Type.Array(AccountListItemSchema), stats: DirectoryStatsSchema }),
);

export const ProfileUserAnswer = EnvelopeOf(Type.Object({ user: ProfileUserSchema }));
