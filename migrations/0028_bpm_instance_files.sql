-- The files a request's form holds (its `file` fields), rewritten whenever the form changes. A
-- file held by a request that is not over cannot be deleted (the files service asks BPM).
CREATE TABLE bpm_instance_files (
  tenant_id bigint NOT NULL,
  instance_id bigint NOT NULL REFERENCES bpm_instances (id) ON DELETE CASCADE,
  file_id bigint NOT NULL,
  PRIMARY KEY (instance_id, file_id)
);
CREATE INDEX bpm_instance_files_file ON bpm_instance_files (tenant_id, file_id);
