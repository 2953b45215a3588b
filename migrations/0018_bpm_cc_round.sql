-- One CC copy per recipient, node and round: re-entering a CC node in the same round (after a
-- withdrawal, say) used to copy and notify the same people again. Copies written before this
-- migration count as round 1 of their instance's path; repeated ones are dropped, keeping the
-- first (and its read state).
ALTER TABLE bpm_cc ADD COLUMN round integer NOT NULL DEFAULT 1;
DELETE FROM bpm_cc c
 USING bpm_cc first
 WHERE first.instance_id = c.instance_id AND first.node_id = c.node_id
   AND first.user_id = c.user_id AND first.id < c.id;
CREATE UNIQUE INDEX bpm_cc_once ON bpm_cc (instance_id, node_id, user_id, round);
