import type { PlatformMigration } from './platform-migration.js';
import { initial } from './001-initial.js';
import { loginFailures } from './002-login-failures.js';
import { appData } from './003-app-data.js';
import { loginRateWindows } from './004-login-rate-windows.js';
import { tokenLimits } from './005-token-limits.js';
import { audit } from './006-audit.js';
import { consoleIndexes } from './007-console-indexes.js';
import { hookSchema } from './008-hook-schema.js';
import { passwordChangeRequired } from './009-password-change-required.js';
import { secondFactor } from './010-second-factor.js';

export type { PlatformMigration };

// Versioned migrations, applied in key order at start and by `platform-core migrate`.
// Never edit a released migration: add a new one.
export const migrations: Record<string, PlatformMigration> = {
  '001-initial': initial,
  '002-login-failures': loginFailures,
  '003-app-data': appData,
  '004-login-rate-windows': loginRateWindows,
  '005-token-limits': tokenLimits,
  '006-audit': audit,
  '007-console-indexes': consoleIndexes,
  '008-hook-schema': hookSchema,
  '009-password-change-required': passwordChangeRequired,
  '010-second-factor': secondFactor,
};
