-- A machine's branch builds are found by machine: its delete confirmation counts them, its purge and a merge into
-- another machine change them. Without this index each of those read every branch build.
CREATE INDEX branch_run_machine_idx ON branch_run (machine_id);
