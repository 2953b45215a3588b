import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Test certificates made with the openssl CLI (P-256 keys: quick to generate). */
export function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

export interface TestCertificates {
  /** Self-signed, valid `days`, for edge.example.test and www.example.test. */
  selfSigned(days: number, cn?: string): { certificate: string; privateKey: string };
  /** A leaf signed by a fresh CA: the leaf, the CA, the leaf's key. */
  signedByCa(): { leaf: string; ca: string; privateKey: string };
  /** `privateKey` encrypted with `passphrase` (AES-256). */
  encrypt(privateKey: string, passphrase: string): string;
  close(): void;
}

export function testCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'approva-certs-'));
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  return {
    selfSigned(days, cn = 'edge.example.test') {
      openssl(
        dir,
        'req',
        '-x509',
        ...ec,
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        String(days),
        '-subj',
        `/CN=${cn}/O=Approva Tests`,
        '-addext',
        'subjectAltName=DNS:edge.example.test,DNS:www.example.test',
      );
      return { certificate: read('cert.pem'), privateKey: read('key.pem') };
    },
    signedByCa() {
      openssl(
        dir,
        'req',
        '-x509',
        ...ec,
        '-keyout',
        'ca.key',
        '-out',
        'ca.pem',
        '-days',
        '30',
        '-subj',
        '/CN=Approva Test CA',
      );
      openssl(
        dir,
        'req',
        ...ec,
        '-keyout',
        'leaf.key',
        '-out',
        'leaf.csr',
        '-subj',
        '/CN=api.example.test',
      );
      writeFileSync(join(dir, 'leaf.ext'), 'subjectAltName=DNS:api.example.test\n');
      openssl(
        dir,
        'x509',
        '-req',
        '-in',
        'leaf.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '20',
        '-extfile',
        'leaf.ext',
        '-out',
        'leaf.pem',
      );
      return { leaf: read('leaf.pem'), ca: read('ca.pem'), privateKey: read('leaf.key') };
    },
    encrypt(privateKey, passphrase) {
      writeFileSync(join(dir, 'plain.key'), privateKey);
      openssl(
        dir,
        'pkey',
        '-in',
        'plain.key',
        '-aes256',
        '-passout',
        `pass:${passphrase}`,
        '-out',
        'enc.key',
      );
      return read('enc.key');
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
