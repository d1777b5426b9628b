import { readFileSync } from 'node:fs';

// Read once at load: the API version reported by ping and the profile is the package version.
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
