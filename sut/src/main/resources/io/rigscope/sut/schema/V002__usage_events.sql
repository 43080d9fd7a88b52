-- One metered usage event. customer_id and meter are the caller's names (not foreign keys): an ingest API
-- accepts usage for customers and meters it learns about later, and checks nothing per event on the hot path.
CREATE TABLE usage_events (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id       bigint      NOT NULL REFERENCES tenants (id),
    customer_id     text        NOT NULL,
    meter           text        NOT NULL,
    quantity        bigint      NOT NULL CHECK (quantity >= 0),
    event_time      timestamptz NOT NULL,
    received_at     timestamptz NOT NULL DEFAULT now(),
    idempotency_key text        NOT NULL,
    properties      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    CONSTRAINT usage_events_idempotency UNIQUE (tenant_id, idempotency_key)
);

CREATE INDEX usage_events_customer_meter_time ON usage_events (tenant_id, customer_id, meter, event_time);
CREATE INDEX usage_events_tenant_time ON usage_events (tenant_id, event_time);
CREATE INDEX usage_events_properties ON usage_events USING gin (properties);
