-- +goose Up
CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT UNIQUE,
    display_name  TEXT NOT NULL,
    password_hash TEXT NOT NULL DEFAULT '',
    role          TEXT NOT NULL DEFAULT 'player',
    guest         BOOLEAN NOT NULL DEFAULT FALSE,
    banned        BOOLEAN NOT NULL DEFAULT FALSE,
    avatar        TEXT NOT NULL DEFAULT '',
    colour        TEXT NOT NULL DEFAULT '',
    created_at    DATETIME NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE rooms (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    code       TEXT NOT NULL UNIQUE,
    host_id    INTEGER NOT NULL REFERENCES users(id),
    ruleset    TEXT NOT NULL,
    options    TEXT NOT NULL DEFAULT '{}',
    mode       TEXT NOT NULL,
    approval   BOOLEAN NOT NULL DEFAULT FALSE,
    locked     BOOLEAN NOT NULL DEFAULT FALSE,
    capacity   INTEGER NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open',
    game_id    INTEGER,
    paused_at  DATETIME,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);
CREATE INDEX rooms_status ON rooms(status);

CREATE TABLE members (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id    INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    user_id    INTEGER REFERENCES users(id),
    name       TEXT NOT NULL,
    role       TEXT NOT NULL,
    seat       INTEGER NOT NULL DEFAULT -1,
    bot_level  INTEGER NOT NULL DEFAULT 0,
    wants_seat BOOLEAN NOT NULL DEFAULT FALSE,
    covered    BOOLEAN NOT NULL DEFAULT FALSE,
    created_at DATETIME NOT NULL
);
CREATE INDEX members_room ON members(room_id);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id      INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    number       INTEGER NOT NULL,
    ruleset      TEXT NOT NULL,
    seats        INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    options      TEXT NOT NULL DEFAULT '{}',
    seat_members TEXT NOT NULL DEFAULT '[]',
    opener       INTEGER NOT NULL DEFAULT 0,
    start_now    INTEGER NOT NULL,
    state        BLOB NOT NULL,
    seq          INTEGER NOT NULL DEFAULT 0,
    phase        TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'live',
    started_at   DATETIME NOT NULL,
    ended_at     DATETIME,
    UNIQUE (room_id, number)
);

CREATE TABLE actions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,
    now        INTEGER NOT NULL,
    created_at DATETIME NOT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE chat_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id    INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    user_id    INTEGER REFERENCES users(id),
    name       TEXT NOT NULL,
    text       TEXT NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX chat_room ON chat_messages(room_id, id);

-- +goose Down
DROP TABLE chat_messages;
DROP TABLE actions;
DROP TABLE games;
DROP TABLE members;
DROP TABLE rooms;
DROP TABLE sessions;
DROP TABLE users;
