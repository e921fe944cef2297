-- +goose Up
-- House rules (issue 7): Lua scripts uploaded by users, their versions (each reviewed by an admin
-- before others may enable it), the rules a room has enabled, and the exact versions each game
-- started with.
CREATE TABLE house_rule_scripts (
    id          BIGSERIAL PRIMARY KEY,
    owner_id    BIGINT NOT NULL REFERENCES users(id),
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    -- rulesets: the ruleset ids the script is for, as a JSON list.
    rulesets    TEXT NOT NULL DEFAULT '[]',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX house_rule_scripts_owner ON house_rule_scripts(owner_id);

CREATE TABLE house_rule_versions (
    id            BIGSERIAL PRIMARY KEY,
    script_id     BIGINT NOT NULL REFERENCES house_rule_scripts(id) ON DELETE CASCADE,
    number        BIGINT NOT NULL,
    source        TEXT NOT NULL,
    checksum      TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    -- declared: the sdk.HouseRuleInfo the script declares (options, hooks, actions), as JSON.
    declared      TEXT NOT NULL DEFAULT '{}',
    -- status: pending, approved, rejected or disabled; who set it, when and why.
    status        TEXT NOT NULL DEFAULT 'pending',
    status_by     BIGINT REFERENCES users(id),
    status_at     TIMESTAMPTZ,
    status_reason TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMPTZ NOT NULL,
    UNIQUE (script_id, number),
    UNIQUE (script_id, checksum)
);
CREATE INDEX house_rule_versions_status ON house_rule_versions(status);

CREATE TABLE room_house_rules (
    id         BIGSERIAL PRIMARY KEY,
    room_id    BIGINT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    script_id  BIGINT NOT NULL REFERENCES house_rule_scripts(id),
    version_id BIGINT NOT NULL REFERENCES house_rule_versions(id),
    position   BIGINT NOT NULL,
    -- options: the rule's validated option values, as JSON.
    options    TEXT NOT NULL DEFAULT '{}',
    enabled_by BIGINT REFERENCES users(id),
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (room_id, script_id)
);

CREATE TABLE game_house_rules (
    game_id    BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position   BIGINT NOT NULL,
    version_id BIGINT NOT NULL REFERENCES house_rule_versions(id),
    options    TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, position)
);

-- +goose Down
DROP TABLE game_house_rules;
DROP TABLE room_house_rules;
DROP TABLE house_rule_versions;
DROP TABLE house_rule_scripts;
