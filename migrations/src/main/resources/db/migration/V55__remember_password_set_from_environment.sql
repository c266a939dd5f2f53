-- The password hash that PERFTRACK_ADMIN_PASSWORD last set for a user (the same value as password_hash when it was
-- set): a start with that same value leaves a password changed on the page alone; a different value resets it.
ALTER TABLE app_user ADD COLUMN env_password_hash text;
