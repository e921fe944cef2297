-- +goose Up
-- House rules that failed in live games (issue 23): every failure of a hook, with the room, the
-- game, the rule, its version, the hook and the line, counted per rule and version in the admin
-- area's problems view. suspended marks the failure after which the room suspended the rule for
-- the rest of the game.
CREATE TABLE house_rule_failures (
    id          BIGSERIAL PRIMARY KEY,
    room_id     BIGINT NOT NULL,
    room_code   TEXT NOT NULL,
    game_id     BIGINT NOT NULL,
    game_number INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    rule        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    hook        TEXT NOT NULL DEFAULT '',
    line        INTEGER NOT NULL DEFAULT 0,
    seat        INTEGER NOT NULL,
    action      TEXT NOT NULL DEFAULT '',
    bot         BOOLEAN NOT NULL DEFAULT FALSE,
    message     TEXT NOT NULL DEFAULT '',
    suspended   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX house_rule_failures_rule ON house_rule_failures(rule, version);
CREATE INDEX house_rule_failures_game ON house_rule_failures(game_id);

-- +goose Down
DROP TABLE house_rule_failures;
