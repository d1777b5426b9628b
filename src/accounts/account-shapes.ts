// The account shapes the API answers with (docs/api.md, Accounts): TypeBox schemas, which validate and
// document them, and the types derived from them, which the services build. One definition each.
import { Type, type Static } from 'typebox';
import { USERNAME_PATTERN } from '../identity/usernames.js';

const NullableString = (opts: Parameters<typeof Type.String>[0] = {}) => Type.Union([Type.String(opts), Type.Null()]);

export const Username = Type.String({ pattern: USERNAME_PATTERN, maxLength: 256 });

export const ProfileUserSchema = Type.Object({
  username: Type.String(),
  emailconfirmed: Type.Boolean(),
  phonenumber: Type.String(),
  team_id: Type.String({ format: 'uuid' }),
  team_name: Type.String(),
  user_app_name: Type.String(),
  user_first_name: Type.String(),
  user_last_name: Type.String(),
  user_home: NullableString(),
  user_color: Type.String({ description: 'HEX colour' }),
  user_short: Type.String({ description: 'initials' }),
  user_currency: Type.String({ description: 'ISO 4217 code' }),
  user_properties: Type.Record(Type.String(), Type.Unknown()),
});

export const ProfileTeamSchema = Type.Object({
  team_id: Type.String({ format: 'uuid' }),
  team_short: Type.String(),
  team_name: Type.String(),
  teamuser_lvl: NullableString(),
  team_type: Type.String({ description: 'internal or external' }),
});

export const AccountListItemSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  username: Type.String(),
  phonenumber: Type.String(),
  emailconfirmed: Type.Boolean(),
  lockoutenabled: Type.Boolean(),
  islocked: Type.Boolean(),
  isactive: Type.Boolean(),
  lockoutend: NullableString({ description: 'with UTC offset' }),
  lockoutending: NullableString({ description: 'with Z suffix' }),
  lastActivity: Type.String({ description: 'last authenticated activity (creation time when none)' }),
  team_id: Type.String({ format: 'uuid' }),
  team_name: Type.String(),
  user_currency: Type.String(),
  user_home: NullableString(),
  user_app_name: Type.String(),
  teams: Type.Integer(),
  roles: Type.Integer(),
  user_first_name: Type.String(),
  user_last_name: Type.String(),
  user_color: Type.String(),
  user_avatar: NullableString(),
  user_short: Type.String(),
});

export const ProfileUpdateBody = Type.Object(
  {
    username: Type.Optional(
      Type.String({ ...Username, description: 'administrators: the user to update (default: the caller)' }),
    ),
    phonenumber: Type.Optional(
      Type.String({ pattern: '^[0-9 +()-]{0,32}$', description: '≤ 32 of digits, spaces, + - ( )' }),
    ),
    team_id: Type.Optional(Type.String({ format: 'uuid', description: 'a team the user belongs to' })),
    user_currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })),
    user_first_name: Type.Optional(Type.String({ maxLength: 256 })),
    user_last_name: Type.Optional(Type.String({ maxLength: 256 })),
    user_color: Type.Optional(Type.String({ pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$' })),
    user_short: Type.Optional(Type.String({ minLength: 1, maxLength: 4 })),
    user_properties: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'JSON object ≤ 64 KiB' }),
    ),
    user_avatar: Type.Optional(NullableString({ maxLength: 2048, description: 'https or relative URL' })),
    user_home: Type.Optional(NullableString({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export type ProfileUser = Static<typeof ProfileUserSchema>;
export type ProfileTeam = Static<typeof ProfileTeamSchema>;
export type AccountListItem = Static<typeof AccountListItemSchema>;
/** A profile change: the body of the update route without its `username` (whose profile). */
export type ProfileUpdate = Omit<Static<typeof ProfileUpdateBody>, 'username'>;
