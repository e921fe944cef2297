-- +goose Up
CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    username      TEXT UNIQUE,
    display_name  TEXT NOT NULL,
    password_hash TEXT NOT NULL DEFAULT '',
    role          TEXT NOT NULL DEFAULT 'player',
    guest         BOOLEAN NOT NULL DEFAULT FALSE,
    banned        BOOLEAN NOT NULL DEFAULT FALSE,
    avatar        TEXT NOT NULL DEFAULT '',
    colour        TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE rooms (
    id         BIGSERIAL PRIMARY KEY,
    code       TEXT NOT NULL UNIQUE,
    host_id    BIGINT NOT NULL REFERENCES users(id),
    ruleset    TEXT NOT NULL,
    options    TEXT NOT NULL DEFAULT '{}',
    mode       TEXT NOT NULL,
    approval   BOOLEAN NOT NULL DEFAULT FALSE,
    locked     BOOLEAN NOT NULL DEFAULT FALSE,
    capacity   BIGINT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open',
    game_id    BIGINT,
    paused_at  TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX rooms_status ON rooms(status);

CREATE TABLE members (
    id         BIGSERIAL PRIMARY KEY,
    room_id    BIGINT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    user_id    BIGINT REFERENCES users(id),
    name       TEXT NOT NULL,
    role       TEXT NOT NULL,
    seat       BIGINT NOT NULL DEFAULT -1,
    bot_level  BIGINT NOT NULL DEFAULT 0,
    wants_seat BOOLEAN NOT NULL DEFAULT FALSE,
    covered    BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX members_room ON members(room_id);

CREATE TABLE games (
    id           BIGSERIAL PRIMARY KEY,
    room_id      BIGINT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    number       BIGINT NOT NULL,
    ruleset      TEXT NOT NULL,
    seats        BIGINT NOT NULL,
    seed         BIGINT NOT NULL,
    options      TEXT NOT NULL DEFAULT '{}',
    seat_members TEXT NOT NULL DEFAULT '[]',
    opener       BIGINT NOT NULL DEFAULT 0,
    start_now    BIGINT NOT NULL,
    state        BYTEA NOT NULL,
    seq          BIGINT NOT NULL DEFAULT 0,
    phase        TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'live',
    started_at   TIMESTAMPTZ NOT NULL,
    ended_at     TIMESTAMPTZ,
    UNIQUE (room_id, number)
);

CREATE TABLE actions (
    id         BIGSERIAL PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    seat       BIGINT NOT NULL,
    action     TEXT NOT NULL,
    now        BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE chat_messages (
    id         BIGSERIAL PRIMARY KEY,
    room_id    BIGINT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    user_id    BIGINT REFERENCES users(id),
    name       TEXT NOT NULL,
    text       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
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
