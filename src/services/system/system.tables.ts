import type { Generated, Kysely } from 'kysely';

/** The system service's tables (migration 0026); only its code reads them (and the error texts' loader). */
export type SystemTables = {
  sys_error_texts: {
    code: number;
    message: string;
    updated_by: number;
    updated_at: Generated<Date>;
  };
  sys_notices: {
    id: Generated<number>;
    tenant_id: number;
    title: string;
    body: string;
    level: string;
    starts_at: Date | null;
    ends_at: Date | null;
    published: boolean;
    created_by: number;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  sys_settings: {
    tenant_id: number;
    key: string;
    type: string;
    /** JSON of `type`; written as JSON text. */
    value: unknown;
    description: string;
    updated_by: number;
    updated_at: Generated<Date>;
  };
  sys_dicts: {
    id: Generated<number>;
    tenant_id: number;
    code: string;
    name: string;
    /** The ordered items, as JSON text on write. */
    items: unknown;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  sys_inbox: {
    id: Generated<number>;
    tenant_id: number;
    user_id: number;
    category: string;
    title: string;
    body: string;
    link: string | null;
    read_at: Date | null;
    created_at: Generated<Date>;
  };
  sys_templates: {
    key: string;
    lang: string;
    title: string;
    body: string;
    updated_by: number;
    updated_at: Generated<Date>;
  };
  sys_certificates: {
    id: Generated<number>;
    name: string;
    subject: string;
    issuer: string;
    /** The subjectAltName entries (`DNS:a.example`), as JSON text on write. */
    sans: unknown;
    serial_number: string;
    not_before: Date;
    not_after: Date;
    fingerprint256: string;
    certificate_pem: string;
    chain_pem: string;
    /** `v1:<iv>:<tag>:<ciphertext>` (base64), AES-256-GCM; never answered. */
    private_key_encrypted: string;
    created_by: number;
    created_at: Generated<Date>;
  };
};

export type SystemDb = Kysely<SystemTables>;
