-- Keyright Seats schema, version 3: a row that a starting node locks (SELECT ... FOR UPDATE) while it
-- looks for what must exist exactly once and creates it if it is missing: the lease-signing key and the
-- generated admin password. Nodes starting together on an empty database then queue instead of each
-- creating their own.

INSERT INTO setting (name, setting_value) VALUES ('start-up-lock', 'locked while a starting node creates the signing key or the admin password');
