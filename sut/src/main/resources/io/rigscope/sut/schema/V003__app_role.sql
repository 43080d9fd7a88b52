-- The role the service connects as: separate from the owner, with only what the service does.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'rigscope_app') THEN
        CREATE ROLE rigscope_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO rigscope_app', current_database());
END
$$;

GRANT USAGE ON SCHEMA public TO rigscope_app;
GRANT SELECT ON tenants, customers, meters TO rigscope_app;
GRANT SELECT (id, tenant_id, key_hash, revoked_at), UPDATE (last_used_at) ON api_keys TO rigscope_app;
GRANT SELECT, INSERT ON usage_events TO rigscope_app;
