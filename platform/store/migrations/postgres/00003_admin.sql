-- +goose Up
-- The admin area (issue 8): the audit log of admin actions, rulesets disabled for new rooms, and
-- deleted accounts (kept as tombstones so the games they played stay whole).
CREATE TABLE admin_audit (
    id          BIGSERIAL PRIMARY KEY,
    actor_id    BIGINT,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id   TEXT NOT NULL DEFAULT '',
    target      TEXT NOT NULL DEFAULT '',
    detail      TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX admin_audit_target ON admin_audit(target_type, target_id);

CREATE TABLE disabled_rulesets (
    ruleset     TEXT PRIMARY KEY,
    reason      TEXT NOT NULL DEFAULT '',
    actor_id    BIGINT,
    disabled_at TIMESTAMPTZ NOT NULL
);

-- Actions per minute on the dashboard counts the newest actions.
CREATE INDEX actions_created ON actions(created_at);

ALTER TABLE users ADD COLUMN deleted_at TIMESTAMPTZ;

-- +goose Down
ALTER TABLE users DROP COLUMN deleted_at;
DROP INDEX actions_created;
DROP TABLE disabled_rulesets;
DROP TABLE admin_audit;
