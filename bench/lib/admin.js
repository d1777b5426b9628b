// The administrator every benchmark server starts with (PLATFORM_ADMIN_PASSWORD): one password
// that the password rules accept (long, not common, not containing the username).
export const BENCH_ADMIN_PASSWORD = 'bench-operator-passphrase-not-secret';
export const BENCH_ADMIN = { username: 'admin', password: BENCH_ADMIN_PASSWORD };
