-- A login for the BI team, written into a migration instead of the
-- platform's infrastructure code: a role belongs to the whole server.
CREATE ROLE bi_reader LOGIN PASSWORD 'changeme';
