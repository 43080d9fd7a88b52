-- The billing account tree: a tenant owns its customers, meters and API keys.
CREATE TABLE tenants (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE customers (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id   bigint      NOT NULL REFERENCES tenants (id),
    external_id text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, external_id)
);

-- unit_price_micros: price of one unit in millionths of the invoice currency.
CREATE TABLE meters (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id         bigint NOT NULL REFERENCES tenants (id),
    name              text   NOT NULL,
    unit              text   NOT NULL,
    unit_price_micros bigint NOT NULL DEFAULT 0 CHECK (unit_price_micros >= 0),
    UNIQUE (tenant_id, name)
);

-- key_hash: lower-case hex SHA-256 of the bearer token; the token itself is never stored.
CREATE TABLE api_keys (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id    bigint      NOT NULL REFERENCES tenants (id),
    key_hash     text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
