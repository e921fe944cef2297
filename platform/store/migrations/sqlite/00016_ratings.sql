-- +goose Up
-- Accounts that remember (issue 32): who sat where in each game, each game's result per person,
-- and a skill rating per registered account per variant (platform/rating).

-- seat_users is a JSON list of the user id at each seat when the game was dealt (0: a bot), so a
-- game's end knows who played it even after a player left and a bot took the seat.
ALTER TABLE games ADD COLUMN seat_users TEXT NOT NULL DEFAULT '';

-- One row per person (guests too) per finished game, written once (the primary key makes a second
-- write of the same game fail, so a finish seen twice is counted once). mu/sigma before and after
-- are NULL when the game moved no rating (a guest, a game without two rated sides).
CREATE TABLE game_results (
    game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    ruleset      TEXT NOT NULL,
    place        INTEGER NOT NULL,
    players      INTEGER NOT NULL,
    left_game    BOOLEAN NOT NULL DEFAULT FALSE,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    ended_at     DATETIME NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_results_user ON game_results(user_id, ended_at);

CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    ruleset    TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    ordinal    REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at DATETIME NOT NULL,
    PRIMARY KEY (user_id, ruleset)
);
CREATE INDEX ratings_board ON ratings(ruleset, ordinal);

-- +goose Down
DROP TABLE ratings;
DROP TABLE game_results;
ALTER TABLE games DROP COLUMN seat_users;
