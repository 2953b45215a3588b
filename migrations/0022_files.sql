-- Uploaded files: the bytes live in the storage (local disk or S3) under a random key; the row
-- holds what is shown and served with them.
CREATE TABLE files_objects (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL,
  storage_key text NOT NULL UNIQUE,
  name text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  uploaded_by bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX files_objects_tenant_id ON files_objects (tenant_id, id DESC);

-- Bytes stored per tenant: the quota is enforced by a conditional update of this row, so two
-- concurrent uploads cannot both pass a check the sum of them fails.
CREATE TABLE files_usage (
  tenant_id bigint PRIMARY KEY,
  bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0)
);
