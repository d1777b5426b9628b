// Secrets the service must read back (TOTP secrets), kept in the database encrypted: AES-256-GCM
// under a key derived from the instance's secrets key (signing-key.ts loadSecretsKey), bound to
// what the secret belongs to (an account id), so a value copied to another row does not open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private readonly key: Buffer;

  constructor(instanceKey: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', instanceKey, Buffer.alloc(0), 'platform-core secret-box v1', 32));
  }

  /** `plain` encrypted for `owner`: `v1.<base64url of iv, tag and ciphertext>`. */
  seal(plain: string, owner: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The secret sealed for `owner`; throws when the value was altered, moved or sealed under another key. */
  open(sealed: string, owner: string): string {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || payload === undefined) throw new Error('not a sealed secret');
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(owner, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
