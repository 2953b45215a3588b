/** Values that are never acceptable as a production password or token. */
const WEAK_VALUES = new Set([
  'admin',
  'admin123',
  'changeme',
  'change-me',
  'change_me',
  'default',
  'letmein',
  'minioadmin',
  'minio123',
  'password',
  'password1',
  'password123',
  'postgres',
  'qwerty',
  'redis',
  'root',
  'secret',
  'test',
  'toor',
  '123456',
  '12345678',
  '123456789',
]);

const PLACEHOLDER_PATTERNS = [
  /change[-_ ]?me/i,
  /change[-_ ]?this/i,
  /placeholder/i,
  /example/i,
  /^your[-_ ]/i,
  /insecure/i,
  /^dev[-_]/i,
  /^test[-_]/i,
  /^x+$/i,
  /todo/i,
];

/** A weak credential: empty, a well-known default, shorter than 8 characters, or one repeated character. */
export function isWeakSecret(value: string): boolean {
  const v = value.trim();
  if (v.length < 8) return true;
  if (WEAK_VALUES.has(v.toLowerCase())) return true;
  return /^(.)\1*$/.test(v);
}

/** A placeholder left in from an example file: `change-me`, `your-secret`, `dev-…`, `xxxx`. */
export function isPlaceholderSecret(value: string): boolean {
  const v = value.trim();
  return v === '' || isWeakSecret(v) || PLACEHOLDER_PATTERNS.some((p) => p.test(v));
}
