-- +goose Up
-- House rules (issue 7): Lua scripts uploaded by users, their versions (each reviewed by an admin
-- before others may enable it), the rules a room has enabled, and the exact versions each game
-- started with.
CREATE TABLE house_rule_scripts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id    INTEGER NOT NULL REFERENCES users(id),
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    -- rulesets: the ruleset ids the script is for, as a JSON list.
    rulesets    TEXT NOT NULL DEFAULT '[]',
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL
);
CREATE INDEX house_rule_scripts_owner ON house_rule_scripts(owner_id);

CREATE TABLE house_rule_versions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    script_id     INTEGER NOT NULL REFERENCES house_rule_scripts(id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    source        TEXT NOT NULL,
    checksum      TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    -- declared: the sdk.HouseRuleInfo the script declares (options, hooks, actions), as JSON.
    declared      TEXT NOT NULL DEFAULT '{}',
    -- status: pending, approved, rejected or disabled; who set it, when and why.
    status        TEXT NOT NULL DEFAULT 'pending',
    status_by     INTEGER REFERENCES users(id),
    status_at     DATETIME,
    status_reason TEXT NOT NULL DEFAULT '',
    created_at    DATETIME NOT NULL,
    UNIQUE (script_id, number),
    UNIQUE (script_id, checksum)
);
CREATE INDEX house_rule_versions_status ON house_rule_versions(status);

CREATE TABLE room_house_rules (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id    INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    script_id  INTEGER NOT NULL REFERENCES house_rule_scripts(id),
    version_id INTEGER NOT NULL REFERENCES house_rule_versions(id),
    position   INTEGER NOT NULL,
    -- options: the rule's validated option values, as JSON.
    options    TEXT NOT NULL DEFAULT '{}',
    enabled_by INTEGER REFERENCES users(id),
    created_at DATETIME NOT NULL,
    UNIQUE (room_id, script_id)
);

CREATE TABLE game_house_rules (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    version_id INTEGER NOT NULL REFERENCES house_rule_versions(id),
    options    TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, position)
);

-- +goose Down
DROP TABLE game_house_rules;
DROP TABLE room_house_rules;
DROP TABLE house_rule_versions;
DROP TABLE house_rule_scripts;
